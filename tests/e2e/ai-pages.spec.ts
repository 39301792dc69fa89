import { type APIResponse, expect, test } from '@playwright/test'
import { FORM_CONTAINER_ID } from '../../app/content/contact'
import { pageAt } from '../../app/content/pages'
import { markdownPath, SHARE_CARD } from '../../app/lib/seo'
import { site } from '../../app/site'
import { pngTexts } from '../../scripts/brand-assets'
import { mainContent, markdownPlainText, wordDifference, words } from '../support/page-text'
import { PAGES } from '../support/routes'

/**
 * What may differ between a page and its twin, and nothing else:
 * - a <form>'s fields, options and button are not on the twin (mainContent leaves forms out): a
 *   Markdown file cannot hold a form;
 * - so the twin's heading of the contact form links to the form on the page (`#contact-form`).
 */
const FORM_LINK = `#${FORM_CONTAINER_ID}`

/** A URL on the canonical origin as the path the test server answers it at (anchors kept). */
const local = (url: string) => (url.startsWith(site.url) ? url.slice(site.url.length) || '/' : url)

/** A link target as a path on this site (`/products#features`), or as given (mailto:, tel:, other sites). */
function target(href: string, pagePath: string): string {
  if (href.startsWith('#')) return `${pagePath}${href}`
  return local(href)
}

/** What every answer made for assistants carries: public caching and the non-HTML security headers. */
function expectPublicText(response: APIResponse, type: string) {
  expect(response.status()).toBe(200)
  const headers = response.headers()
  expect(headers['content-type']).toBe(`${type}; charset=utf-8`)
  expect(headers['cache-control']).toBe('public, max-age=3600')
  expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'")
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['strict-transport-security']).toContain('max-age=')
  expect(headers['set-cookie']).toBeUndefined()
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

/** The most a share card may weigh (scripts/share-cards.ts: WhatsApp shows no image over 300 KB). */
const CARD_MAX_BYTES = 100 * 1024

test.describe('each public page has a Markdown twin that says what the page says, and a share card', () => {
  // The page as served (what a crawler reads); the twin is compared with the server's HTML.
  test.use({ javaScriptEnabled: false })

  for (const { path } of PAGES) {
    test(`${path} → ${markdownPath(path)}`, async ({ page, request }) => {
      await page.goto(path)
      const alternate = page.locator('head link[rel="alternate"][type="text/markdown"]')
      await expect(alternate).toHaveAttribute('href', `${site.url}${markdownPath(path)}`)

      const response = await request.get(markdownPath(path))
      expectPublicText(response, 'text/markdown')
      expect(response.headers().link).toBe(`<${site.url}${path === '/' ? '/' : path}>; rel="canonical"`)
      const twin = readTwin(await response.text())
      const shown = await mainContent(page)

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

      // The share card the head names: served, its size, and its words the page's.
      const cardUrl = (await page.locator('head meta[property="og:image"]').getAttribute('content')) ?? ''
      expect(cardUrl).toMatch(new RegExp(`^${site.url}/og/.+\\.png$`))
      await expect(page.locator('head meta[name="twitter:image"]')).toHaveAttribute('content', cardUrl)
      const card = await request.get(local(cardUrl))
      expect(card.status()).toBe(200)
      expect(card.headers()['content-type']).toBe('image/png')
      expect(card.headers()['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800')
      expect(card.headers()['x-content-type-options']).toBe('nosniff')
      const png = await card.body()
      expect(png.length).toBeLessThanOrEqual(CARD_MAX_BYTES)
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([SHARE_CARD.width, SHARE_CARD.height])
      await expect(page.locator('head meta[property="og:image:width"]')).toHaveAttribute('content', '1200')
      await expect(page.locator('head meta[property="og:image:height"]')).toHaveAttribute('content', '630')
      await expect(page.locator('head meta[property="og:image:alt"]')).toHaveAttribute('content', /\S/)
      const { Title: title = '', Description: line = '' } = pngTexts(png)
      expect(await page.title()).toContain(title)
      expect(words(shown.text).join(' ')).toContain(words(line).join(' '))
      expect(words(line).length).toBeGreaterThan(3)
    })
  }

  test('the 404 page has no twin and no share card', async ({ page }) => {
    const response = await page.goto('/missing-page')
    expect(response?.status()).toBe(404)
    await expect(page.locator('head link[rel="alternate"]')).toHaveCount(0)
    await expect(page.locator('head meta[property="og:image"], head meta[name="twitter:image"]')).toHaveCount(0)
  })

  test('HEAD answers like GET without a body; an unknown .md path is the 404 page', async ({ request }) => {
    const head = await request.head('/services/devops.md')
    expect(head.status()).toBe(200)
    expect(head.headers()['content-type']).toBe('text/markdown; charset=utf-8')
    expect(await head.body()).toHaveLength(0)
    const missing = await request.get('/services/nothing-here.md')
    expect(missing.status()).toBe(404)
    expect(missing.headers()['content-type']).toContain('text/html')
  })
})

test.describe('llms.txt and llms-full.txt', () => {
  test('llms.txt follows the proposal: H1, blockquote, a paragraph, then H2 sections of one-line links to every twin', async ({
    request,
  }) => {
    const response = await request.get('/llms.txt')
    expectPublicText(response, 'text/plain')
    const text = await response.text()
    const blocks = text.trimEnd().split(/\n\n+/)
    expect(blocks[0]).toBe(`# ${site.name}`)
    expect(blocks[1]).toBe(`> ${pageAt('/').description}`)
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
      expect(line, path).toBe(PAGES.map((p) => pageAt(p.path)).find((p) => markdownPath(p.path) === path)?.description)
      expect((await request.get(path)).status(), path).toBe(200)
    }
  })

  test('llms-full.txt holds every twin, in the page list’s order', async ({ request }) => {
    const response = await request.get('/llms-full.txt')
    expectPublicText(response, 'text/plain')
    const full = await response.text()
    expect(full.startsWith(`# ${site.name}\n`)).toBe(true)
    let from = 0
    for (const { path } of PAGES) {
      const twin = (await (await request.get(markdownPath(path))).text()).trimEnd()
      const at = full.indexOf(`Source: ${site.url}${path === '/' ? '/' : path}\n\n${twin}`, from)
      expect(at, path).toBeGreaterThan(from)
      from = at
    }
  })
})
