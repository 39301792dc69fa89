import { expect, test } from 'vitest'
import { markdownPath } from '../../app/lib/seo'
import { PAGES } from '../support/routes'
import { siteUnderTest } from './support/fixtures'

const worker = siteUnderTest()

// Markdown for Agents: `Accept: text/markdown` gets the page's twin, anything else the HTML.
const CHROMIUM_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'

for (const { path } of PAGES) {
  test(`${path} answers Markdown or HTML by its Accept header, never 406`, async () => {
    const twin = await (await worker.fetch(markdownPath(path))).text()

    const markdown = await worker.fetch(path, { headers: { Accept: 'text/markdown' } })
    expect(markdown.status).toBe(200)
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(markdown.headers.get('vary')).toMatch(/\bAccept\b/)
    expect(await markdown.text()).toBe(twin)
    expect(Number(markdown.headers.get('x-markdown-tokens'))).toBe(Math.ceil(twin.length / 4))

    for (const accept of [CHROMIUM_ACCEPT, '*/*', 'application/json']) {
      const html = await worker.fetch(path, { headers: { Accept: accept } })
      expect(html.status, accept).toBe(200)
      expect(html.headers.get('content-type'), accept).toBe('text/html; charset=utf-8')
      expect(html.headers.get('vary'), accept).toMatch(/\bAccept\b/)
      expect(await html.text(), accept).toMatch(/^<!DOCTYPE html>/)
    }
  })
}

test('a HEAD for Markdown gets the Markdown headers and no body', async () => {
  const head = await worker.fetch('/services/devops', {
    method: 'HEAD',
    headers: { Accept: 'text/markdown, text/html;q=0.9' },
  })
  expect(head.status).toBe(200)
  expect(head.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
  expect(Number(head.headers.get('x-markdown-tokens'))).toBeGreaterThan(0)
  expect((await head.arrayBuffer()).byteLength).toBe(0)
})

test("the page cache serves neither representation in the other's place", async () => {
  // The Worker keeps a page that is the same for everyone for a minute; ask in both orders, twice.
  for (const path of ['/products', '/about']) {
    const first = path === '/products' ? 'text/html' : 'text/markdown'
    const second = first === 'text/html' ? 'text/markdown' : 'text/html'
    for (const accept of [first, second, first, second]) {
      const answer = await worker.fetch(path, { headers: { Accept: accept } })
      expect(answer.headers.get('content-type'), `${path} ${accept}`).toBe(`${accept}; charset=utf-8`)
    }
  }
})

test('server functions and routes keep their own answers', async () => {
  const health = await worker.fetch('/api/health', { headers: { Accept: 'text/markdown' } })
  expect(health.headers.get('content-type')).toContain('application/json')
  const robots = await worker.fetch('/robots.txt', { headers: { Accept: 'text/markdown' } })
  expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  expect(robots.headers.get('vary') ?? '').not.toMatch(/\bAccept\b/)
})
