import { expect, test } from '@playwright/test'
import { markdownPath } from '../../app/lib/seo'
import { PAGES } from '../support/routes'

// Markdown for Agents: a public page asked for with `Accept: text/markdown` answers its Markdown
// twin at its own address; browsers, wildcards and clients that accept neither get the HTML.
const CHROMIUM_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'

for (const { path } of PAGES) {
  test(`${path} answers Markdown or HTML by its Accept header, never 406`, async ({ request }) => {
    const twin = await (await request.get(markdownPath(path))).text()

    const markdown = await request.get(path, { headers: { Accept: 'text/markdown' } })
    expect(markdown.status()).toBe(200)
    expect(markdown.headers()['content-type']).toBe('text/markdown; charset=utf-8')
    expect(markdown.headers().vary).toMatch(/\bAccept\b/)
    expect(await markdown.text()).toBe(twin)
    expect(Number(markdown.headers()['x-markdown-tokens'])).toBe(Math.ceil(twin.length / 4))

    for (const accept of [CHROMIUM_ACCEPT, '*/*', 'application/json']) {
      const html = await request.get(path, { headers: { Accept: accept } })
      expect(html.status(), accept).toBe(200)
      expect(html.headers()['content-type'], accept).toBe('text/html; charset=utf-8')
      expect(html.headers().vary, accept).toMatch(/\bAccept\b/)
      expect(await html.text(), accept).toMatch(/^<!DOCTYPE html>/)
    }
  })
}

test('a HEAD for Markdown gets the Markdown headers and no body', async ({ request }) => {
  const head = await request.head('/services/devops', { headers: { Accept: 'text/markdown, text/html;q=0.9' } })
  expect(head.status()).toBe(200)
  expect(head.headers()['content-type']).toBe('text/markdown; charset=utf-8')
  expect(Number(head.headers()['x-markdown-tokens'])).toBeGreaterThan(0)
  expect((await head.body()).length).toBe(0)
})

test("the page cache serves neither representation in the other's place", async ({ request }) => {
  // The Worker keeps a page that is the same for everyone for a minute; ask in both orders, twice.
  for (const path of ['/products', '/about']) {
    const first = path === '/products' ? 'text/html' : 'text/markdown'
    const second = first === 'text/html' ? 'text/markdown' : 'text/html'
    for (const accept of [first, second, first, second]) {
      const answer = await request.get(path, { headers: { Accept: accept } })
      expect(answer.headers()['content-type'], `${path} ${accept}`).toBe(`${accept}; charset=utf-8`)
    }
  }
})

test('server functions and routes keep their own answers', async ({ request }) => {
  const health = await request.get('/api/health', { headers: { Accept: 'text/markdown' } })
  expect(health.headers()['content-type']).toContain('application/json')
  const robots = await request.get('/robots.txt', { headers: { Accept: 'text/markdown' } })
  expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8')
  expect(robots.headers().vary ?? '').not.toMatch(/\bAccept\b/)
})
