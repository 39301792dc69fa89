// Each public page's Markdown twin, share card, llms.txt and llms-full.txt against its server HTML; Markdown for
// Agents by the Accept header.
import { describe, expect, test } from 'vitest'
import { FORM_CONTAINER_ID } from '../../app/content/contact'
import { pageAt as contentPage } from '../../app/content/pages'
import { markdownPath, shareCardPath } from '../../app/lib/seo'
import { site } from '../../app/site'
import { mainContent, markdownPlainText, wordDifference, words } from '../support/page-text'
import { PAGES } from '../support/routes'
import { siteUnderTest } from './support/fixtures'
import { pageAt } from './support/html'

const worker = siteUnderTest()
const get = (path: string, init?: RequestInit) => worker.fetch(path, init)

// A form is not on its twin; the twin's heading of the contact form links to it on the page.
const FORM_LINK = `#${FORM_CONTAINER_ID}`

/** A URL on the canonical origin as the path the test site answers it at (anchors kept). */
const local = (url: string) => (url.startsWith(site.url) ? url.slice(site.url.length) || '/' : url)

/** A link target as a path on this site (`/products#features`), or as given (mailto:, tel:, other sites). */
function target(href: string, pagePath: string): string {
  if (href.startsWith('#')) return `${pagePath}${href}`
  return local(href)
}

/** What every answer made for assistants carries: public caching and the non-HTML security headers. */
function expectPublicText(response: Response, type: string) {
  expect(response.status).toBe(200)
  const headers = response.headers
  expect(headers.get('content-type')).toBe(`${type}; charset=utf-8`)
  expect(headers.get('cache-control')).toBe('public, max-age=3600')
  expect(headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'")
  expect(headers.get('x-content-type-options')).toBe('nosniff')
  expect(headers.get('strict-transport-security')).toContain('max-age=')
  expect(headers.get('set-cookie')).toBeNull()
}

interface Twin {
  headings: { level: number; text: string }[]
  links: { text: string; href: string }[]
  listItems: string[]
  text: string
}

function readTwin(markdown: string): Twin {
  const plain = (text: string) => markdownPlainText(text).replace(/\s+/g, ' ').trim()
  return {
    headings: [...markdown.matchAll(/^(#{1,6}) (.*)$/gm)].map((m) => ({
      level: (m[1] ?? '').length,
      text: plain(m[2] ?? ''),
    })),
    links: [...markdown.matchAll(/(?<!!)\[((?:\\.|[^\]])*)\]\(([^)]*)\)/g)].map((m) => ({
      text: plain(m[1] ?? ''),
      href: m[2] ?? '',
    })),
    listItems: [...markdown.matchAll(/^(?:- |\d+\. )(.*)$/gm)].map((m) => plain(m[1] ?? '')),
    text: markdownPlainText(markdown),
  }
}

describe('each public page has a Markdown twin that says what the page says, and a share card', () => {
  test.each(PAGES.map(({ path }) => [path]))('%s and its twin', async (path) => {
    const { document } = await pageAt(get, path)
    const head = document.head
    expect(head.querySelector('link[rel="alternate"][type="text/markdown"]')?.getAttribute('href')).toBe(
      `${site.url}${markdownPath(path)}`,
    )

    const response = await get(markdownPath(path))
    expectPublicText(response, 'text/markdown')
    expect(response.headers.get('link')).toBe(`<${site.url}${path === '/' ? '/' : path}>; rel="canonical"`)
    const twin = readTwin(await response.text())
    const shown = mainContent(document)

    // Headings: the same, at the same levels, in the same order.
    expect(twin.headings).toEqual(shown.headings)
    expect(twin.headings[0]).toEqual({ level: 1, text: expect.any(String) })
    // Links: the same labels to the same places, in order (the twin's are absolute).
    const twinLinks = twin.links.filter((l) => !l.href.endsWith(FORM_LINK))
    expect(twinLinks.length, 'only the contact form is linked from its heading').toBe(
      twin.links.length - (path === '/contact' ? 1 : 0),
    )
    expect(twinLinks.map((l) => ({ text: l.text, href: target(l.href, path) }))).toEqual(
      shown.links.map((l) => ({ text: l.text, href: target(l.href, path) })),
    )
    // Lists: the same items (cards, which are headed, are sections in the twin).
    expect(twin.listItems.map((item) => words(item).join(' '))).toEqual(
      shown.listItems.map((item) => words(item).join(' ')),
    )
    // Words, both ways, repeats counted: nothing on the twin the page does not say, and the reverse.
    const { onlyInA: onlyOnTwin, onlyInB: onlyOnPage } = wordDifference(words(twin.text), words(shown.text))
    expect({ onlyOnTwin, onlyOnPage }).toEqual({ onlyOnTwin: [], onlyOnPage: [] })

    // The share card the head names is served (its size and words: tests/unit/share-cards).
    const meta = (selector: string) => head.querySelector(selector)?.getAttribute('content') ?? null
    const cardUrl = meta('meta[property="og:image"]') ?? ''
    expect(cardUrl).toBe(`${site.url}${shareCardPath(path)}`)
    expect(meta('meta[name="twitter:image"]')).toBe(cardUrl)
    const card = await get(local(cardUrl))
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toBe('image/png')
    expect(card.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800')
    expect(card.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('the 404 page has no twin; an unknown .md path is the 404 page', async () => {
    const { response, document } = await pageAt(get, '/missing-page')
    expect(response.status).toBe(404)
    expect(document.head.querySelectorAll('link[rel="alternate"]')).toHaveLength(0)
    const missing = await get('/services/nothing-here.md')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toContain('text/html')
  })
})

describe('llms.txt and llms-full.txt', () => {
  test('llms.txt follows the proposal: H1, blockquote, a paragraph, then H2 sections of one-line links to every twin', async () => {
    const response = await get('/llms.txt')
    expectPublicText(response, 'text/plain')
    const text = await response.text()
    const blocks = text.trimEnd().split(/\n\n+/)
    expect(blocks[0]).toBe(`# ${site.name}`)
    expect(blocks[1]).toBe(`> ${contentPage('/').description}`)
    expect(blocks[2]).toMatch(/^[^#>\-\n][^\n]+$/) // a paragraph about the company, no heading
    expect(blocks[2]).toContain(site.name)
    expect(blocks[3]).toMatch(/^[^#>\-\n][^\n]+$/)
    const rest = blocks.slice(4)
    expect(rest[0]).toMatch(/^## /)
    expect(rest.filter((b) => b.startsWith('## ')).at(-1)).toBe('## Optional')
    for (const block of rest) expect(block, block).toMatch(/^## [^\n]+$|^(- \[[^\]]+\]\([^)]+\): [^\n]+\n?)+$/)

    const links = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\): (.+)$/gm)]
    expect(links.map((m) => m[2]).sort()).toEqual(PAGES.map(({ path }) => `${site.url}${markdownPath(path)}`).sort())
    for (const [, , url, line] of links) {
      const path = local(url ?? '')
      expect(line, path).toBe(
        PAGES.map((p) => contentPage(p.path)).find((p) => markdownPath(p.path) === path)?.description,
      )
      expect((await get(path)).status, path).toBe(200)
    }
  })

  test('llms-full.txt holds every twin, in the page list’s order', async () => {
    const response = await get('/llms-full.txt')
    expectPublicText(response, 'text/plain')
    const full = await response.text()
    expect(full.startsWith(`# ${site.name}\n`)).toBe(true)
    let from = 0
    for (const { path } of PAGES) {
      const twin = (await (await get(markdownPath(path))).text()).trimEnd()
      const at = full.indexOf(`Source: ${site.url}${path === '/' ? '/' : path}\n\n${twin}`, from)
      expect(at, path).toBeGreaterThan(from)
      from = at
    }
  })
})

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
