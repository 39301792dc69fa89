/**
 * What every page's server HTML holds, as a browser without JavaScript or a crawler receives it:
 * no inline style (the CSP allows none), no script file named before the first paint, no dead
 * link, footer links to pages that exist, and a title, description and share card of its own.
 */
import { describe, expect, test } from 'vitest'
import { shareCardPath } from '../../app/lib/seo'
import { site } from '../../app/site'
import { PAGES } from '../support/routes'
import { siteUnderTest } from './support/fixtures'
import { pageAt } from './support/html'

const worker = siteUnderTest()

test('the server-rendered HTML carries no inline style attributes (the CSP allows none)', async () => {
  for (const { path } of PAGES) {
    const html = await (await worker.fetch(path)).text()
    expect(html.match(/\sstyle="/g) ?? [], path).toEqual([])
  }
})

describe('the client code starts after the first paint', () => {
  test.each(PAGES.map(({ path }) => [path]))(
    '%s: the HTML preloads no script and names no script file',
    async (path) => {
      const response = await worker.fetch(path)
      const html = await response.text()
      expect(html).not.toMatch(/<link[^>]*modulepreload/)
      expect(html).not.toMatch(/<script[^>]*\ssrc=/)
      // The loader carries the request's CSP nonce.
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
      expect(nonce).toBeTruthy()
      expect(html).toContain(`<script nonce="${nonce}">(function(d,s,p){`)
    },
  )
})

test('/services draws the illustrations a phone fetches before the first paint from the page, and links the last one', async () => {
  const { document } = await pageAt((p) => worker.fetch(p), '/services')
  const drawn = [...document.querySelectorAll('svg[role="img"] use')].map((use) => use.getAttribute('href'))
  expect(drawn).toEqual(['#illustration-devops', '#illustration-ai-solutions', '#illustration-automation'])
  for (const id of drawn) expect(document.querySelector(`symbol${id}`), `${id}'s symbol`).not.toBeNull()
  const files = [...document.querySelectorAll('img[src^="/images/services/"]')]
  expect(files.map((img) => [img.getAttribute('src'), img.getAttribute('loading')])).toEqual([
    ['/images/services/ai-web-development.svg', 'lazy'],
  ])
})

test('no page has a dead "#" link or a link without an address', async () => {
  for (const { path } of PAGES) {
    const { document } = await pageAt((p) => worker.fetch(p), path)
    expect(document.querySelectorAll('a[href="#"], a:not([href])'), path).toHaveLength(0)
  }
})

test('the internal footer links lead to pages that exist', async () => {
  const { document } = await pageAt((p) => worker.fetch(p), '/')
  const hrefs = [...document.querySelectorAll('footer a[href^="/"]')].map((a) => a.getAttribute('href') ?? '')
  expect(hrefs.length).toBeGreaterThan(3)
  for (const href of new Set(hrefs)) expect((await worker.fetch(href)).status, href).toBe(200)
})

test('each page has its own title and description, and names its own share card', async () => {
  const titles = new Set<string>()
  const descriptions = new Set<string>()
  for (const { path } of PAGES) {
    const { document } = await pageAt((p) => worker.fetch(p), path)
    titles.add(document.title)
    descriptions.add(document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '')
    expect(document.querySelectorAll('meta[property="og:title"]'), path).toHaveLength(1)
    expect(document.querySelector('meta[property="og:image"]')?.getAttribute('content'), path).toBe(
      `${site.url}${shareCardPath(path)}`,
    )
    expect(document.querySelector('meta[name="twitter:card"]')?.getAttribute('content'), path).toBe(
      'summary_large_image',
    )
  }
  expect(titles.size).toBe(PAGES.length)
  expect(descriptions.size).toBe(PAGES.length)
})
