// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest'
import {
  cachedPage,
  clearPageCache,
  pageFromCache,
  rememberAnswer,
  sharedPageKey,
  storePage,
} from '~/server/html-cache.server'

const page = (nonce: string) =>
  `<html><head><meta property="csp-nonce" content="${nonce}"/></head><body><script nonce="${nonce}">1</script><p>Hello</p></body></html>`
const html = (body: string, init: ResponseInit = {}) =>
  new Response(body, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, ...init })

beforeEach(() => clearPageCache())

describe('which pages are shared between visitors', () => {
  it('a plain GET of a page is', () => {
    expect(sharedPageKey(new Request('https://aksharalabs.in/services'))).toBe('aksharalabs.in/services')
  })
  it.each<[string, RequestInit?]>([
    ['/contact', { headers: { Cookie: 'x=1' } }],
    ['/contact?subject=devops'],
    ['/contact', { method: 'POST', body: 'x' }],
    ['/api/health'],
    ['/_serverFn/abc'],
    ['/', { headers: { Accept: 'application/json' } }],
    // The operator's desk, however the path is spelled.
    ...['/admin', '/admin/', '/admin/enquiries/x', '/Admin', '/%61dmin/erase/x'].map((path): [string] => [path]),
  ])('%s %j is not', (path, init) => {
    expect(sharedPageKey(new Request(`https://a.in${path}`, init))).toBeNull()
  })
})

describe('the page cache', () => {
  it('serves a stored page with the new nonce in every place the old one was', async () => {
    const first = await storePage('k', html(page('OLDNONCE')), 'OLDNONCE', 0)
    expect(await first.text()).toBe(page('OLDNONCE'))
    const again = cachedPage('k', 'NEWNONCE', 1_000)
    expect(await again?.text()).toBe(page('NEWNONCE'))
    expect(again?.headers.get('Content-Type')).toContain('text/html')
  })

  it('never stores a page meant for one visitor (the contact form, with its own idempotency key)', async () => {
    for (const cacheControl of ['private, no-cache', 'no-store']) {
      const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': cacheControl }
      const answer = await storePage('contact', html(page('N1'), { headers }), 'N1', 0)
      expect(await answer.text()).toBe(page('N1'))
      expect(cachedPage('contact', 'N2', 1_000)).toBeNull()
    }
  })

  it('forgets a page after a minute', async () => {
    await storePage('k', html(page('N1')), 'N1', 0)
    expect(cachedPage('k', 'N2', 59_000)).not.toBeNull()
    expect(cachedPage('k', 'N2', 61_000)).toBeNull()
  })

  it('never stores an error page, a non-HTML answer or one that sets a cookie', async () => {
    await storePage('a', html(page('N'), { status: 500 }), 'N', 0)
    await storePage('b', new Response('{}', { headers: { 'Content-Type': 'application/json' } }), 'N', 0)
    await storePage('c', html(page('N'), { headers: { 'Content-Type': 'text/html', 'Set-Cookie': 'x=1' } }), 'N', 0)
    for (const key of ['a', 'b', 'c']) expect(cachedPage(key, 'M', 1), key).toBeNull()
  })

  it('serves the not-found page again with its 404, and unknown addresses never push a page out', async () => {
    await storePage('page', html(page('P')), 'P', 0)
    for (let i = 0; i < 100; i++) await storePage(`missing-${i}`, html(page('N'), { status: 404 }), 'N', 0)
    const missing = cachedPage('missing-99', 'M', 1)
    expect(missing?.status).toBe(404)
    expect(await missing?.text()).toBe(page('M'))
    expect(cachedPage('missing-0', 'M', 1)).toBeNull()
    expect(await cachedPage('page', 'M', 1)?.text()).toBe(page('M'))
  })

  it('does not store a page whose text happens to contain the nonce', async () => {
    await storePage('k', html(`${page('ABC')}<p>ABC</p>`), 'ABC', 0)
    expect(cachedPage('k', 'XYZ', 1)).toBeNull()
  })
})

describe('a stored page answered before the middleware', () => {
  const make = { nonce: () => 'FRESHNONCE', requestId: () => 'request-2' }
  const request = (init: RequestInit = {}) => new Request('https://a.in/services', init)
  const firstAnswer = (nonce: string) =>
    new Response(page(nonce), {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': `script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'`,
        'X-Request-Id': 'request-1',
        'Cache-Control': 'private, no-cache',
        Vary: 'Accept',
      },
    })

  it('gets the headers the first answer left with, its own nonce in the policy and the page, and its own request id', async () => {
    await storePage('a.in/services', html(page('OLDNONCE')), 'OLDNONCE')
    expect(pageFromCache(request(), make)).toBeNull()
    rememberAnswer(request(), firstAnswer('OLDNONCE'))
    const again = pageFromCache(request(), make)
    expect(again?.status).toBe(200)
    expect(await again?.text()).toBe(page('FRESHNONCE'))
    expect(Object.fromEntries(again?.headers ?? [])).toMatchObject({
      'content-security-policy': "script-src 'self' 'nonce-FRESHNONCE'; style-src 'self' 'nonce-FRESHNONCE'",
      'x-request-id': 'request-2',
      'cache-control': 'private, no-cache',
      vary: 'Accept',
    })
  })

  it("takes no other answer's headers, and leaves to the middleware a visitor with a cookie or asking for Markdown", async () => {
    await storePage('a.in/services', html(page('OLDNONCE')), 'OLDNONCE')
    rememberAnswer(request(), firstAnswer('OTHERNONCE'))
    expect(pageFromCache(request(), make)).toBeNull()
    rememberAnswer(request(), firstAnswer('OLDNONCE'))
    expect(pageFromCache(request({ headers: { Cookie: 'x=1' } }), make)).toBeNull()
    expect(pageFromCache(request({ headers: { Accept: 'text/markdown, text/html;q=0.9' } }), make)).toBeNull()
    expect(pageFromCache(request({ headers: { Accept: 'text/html' } }), make)).not.toBeNull()
  })
})

describe('the contact page, which carries an idempotency key of its own', () => {
  const form = (nonce: string, key: string) =>
    `<html><head><meta property="csp-nonce" content="${nonce}"/></head><body><form><input type="hidden" name="enquiry_key" value="${key}"/></form><script nonce="${nonce}">$R={idempotencyKey:"${key}"}</script></body></html>`
  const privatePage = (body: string) =>
    html(body, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-cache' } })
  let made = 0
  const own = (value: string) => ({ value, make: () => `KEY${++made}xxxxxxxxxxxxxxxx` })

  it('gives every later visitor a new key where the stored page had the first visitor’s', async () => {
    await storePage('c', privatePage(form('N1', 'FIRSTKEYxxxxxxxxxxxxxx')), 'N1', 0, own('FIRSTKEYxxxxxxxxxxxxxx'))
    const second = await cachedPage('c', 'N2', 1)?.text()
    const third = await cachedPage('c', 'N3', 1)?.text()
    expect(second).toBe(form('N2', `KEY1xxxxxxxxxxxxxxxx`))
    expect(third).toBe(form('N3', `KEY2xxxxxxxxxxxxxxxx`))
    expect(second).not.toContain('FIRSTKEY')
  })

  // Without a new key for each visitor it is a private page, never stored (above).
  it('is never stored when the key is anywhere but in its places', async () => {
    const loose = `${form('N1', 'FIRSTKEYxxxxxxxxxxxxxx')}<p>FIRSTKEYxxxxxxxxxxxxxx</p>`
    await storePage('b', privatePage(loose), 'N1', 0, own('FIRSTKEYxxxxxxxxxxxxxx'))
    expect(cachedPage('b', 'N2', 1)).toBeNull()
  })

  it('is shared only among visitors whose visit names no other site and no campaign', () => {
    const contact = (headers: Record<string, string> = {}) => new Request('https://a.in/contact', { headers })
    const direct = sharedPageKey(contact())
    const fromThisSite = sharedPageKey(contact({ Referer: 'https://a.in/services' }))
    expect(direct).not.toBeNull()
    expect(fromThisSite).not.toBeNull()
    expect(direct).not.toBe(fromThisSite)
    expect(sharedPageKey(contact({ Referer: 'https://a.in/?utm_source=news' }))).toBeNull()
    expect(sharedPageKey(contact({ Referer: 'https://search.example/?q=devops' }))).toBeNull()
  })
})
