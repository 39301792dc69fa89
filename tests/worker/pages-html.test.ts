// Every page's server HTML: no inline style, no early script, no dead link.
import { describe, expect, test } from 'vitest'
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
