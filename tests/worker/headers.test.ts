// What every answer carries: security headers, CSP nonce, caching, request id, noindex on previews, www. redirect.
import { describe, expect, test } from 'vitest'
import { siteUnderTest } from './support/fixtures'
import { serverFnId } from './support/http'

const worker = siteUnderTest()

const SECURITY_HEADERS: Record<string, RegExp> = {
  'strict-transport-security': /^max-age=63072000; includeSubDomains$/,
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^strict-origin-when-cross-origin$/,
  'permissions-policy': /^(?=.*\bcamera=\(\))(?=.*\bmicrophone=\(\))(?=.*\bgeolocation=\(\))/,
  'cross-origin-opener-policy': /^same-origin$/,
  'x-frame-options': /^DENY$/,
  'content-security-policy': /default-src '(self|none)'/,
}

function expectSecurityHeaders(headers: Headers, what: string) {
  for (const [name, pattern] of Object.entries(SECURITY_HEADERS))
    expect(headers.get(name), `${name} on ${what}`).toMatch(pattern)
}

describe('security headers', () => {
  test('pages carry a strict CSP with a fresh nonce that every inline script uses', async () => {
    const first = await worker.fetch('/')
    const second = await worker.fetch('/')
    await second.arrayBuffer()
    const csp = first.headers.get('content-security-policy') ?? ''
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    expect(second.headers.get('content-security-policy')).not.toContain(nonce)
    for (const directive of [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "object-src 'none'",
    ])
      expect(csp).toContain(directive)
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    // Turnstile off: no frame may load.
    expect(csp).not.toContain('challenges.cloudflare.com')
    expect(csp).toContain("frame-src 'none'")

    const html = await first.text()
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '')
    expect(scripts.length).toBeGreaterThan(0)
    for (const attrs of scripts) {
      if (/type="application\/ld\+json"/.test(attrs)) continue
      expect(attrs, 'every executable script carries the nonce').toContain(`nonce="${nonce}"`)
    }
    expectSecurityHeaders(first.headers, 'a page')
  })

  test('server routes, server-function answers and static files carry the security headers', async () => {
    const post = (path: string, origin: string, headers: Record<string, string> = {}) =>
      worker.fetch(path, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json', ...headers },
        body: '{}',
      })
    const html = await (await worker.fetch('/')).text()
    // The client entry, named in the inline loader that starts it after the first paint.
    const script = /["'](\/assets\/[^"']+\.js)["']/.exec(html)?.[1] ?? ''
    expect(script).toBeTruthy()
    const unhashed = 'public, max-age=86400, stale-while-revalidate=604800'
    const answers: [string, Promise<Response>, number, string | null][] = [
      ['/robots.txt', worker.fetch('/robots.txt'), 200, null],
      ['a refused server-function call', post('/_serverFn/unknown', 'https://attacker.example'), 403, null],
      ['an unknown server function', post('/_serverFn/unknown', worker.origin), 404, null],
      [
        'the contact server function',
        post(`/_serverFn/${serverFnId('submitContact')}`, worker.origin, { 'x-tsr-serverFn': 'true' }),
        400,
        null,
      ],
      ['/favicon.svg', worker.fetch('/favicon.svg'), 200, unhashed],
      ['an illustration', worker.fetch('/images/services/devops.svg'), 200, unhashed],
      [script, worker.fetch(script), 200, 'public, max-age=31536000, immutable'],
    ]
    for (const [what, answer, status, caching] of answers) {
      const response = await answer
      expect(response.status, what).toBe(status)
      expectSecurityHeaders(response.headers, what)
      if (caching) expect(response.headers.get('cache-control'), what).toBe(caching)
      if (status === 404) expect(await response.json()).toMatchObject({ ok: false, error: 'unknown_function' })
      else await response.body?.cancel()
    }
  })

  test('every response names its request id', async () => {
    const a = await worker.fetch('/about')
    const b = await worker.fetch('/about')
    expect(a.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/)
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
  })

  test('pages served on a workers.dev host (previews) ask search engines not to index them', async () => {
    const preview = await worker.fetch('http://pr-7-akshara-labs-site.example.workers.dev/')
    expect(preview.headers.get('x-robots-tag')).toBe('noindex')
    const canonical = await worker.fetch('/')
    expect(canonical.headers.get('x-robots-tag')).toBeNull()
  })
})

describe('caching', () => {
  test('HTML is kept by the browser only and revalidated on every use, never by a shared cache; error pages are not stored', async () => {
    for (const path of ['/', '/about', '/contact', '/privacy', '/services']) {
      const page = await worker.fetch(path)
      const cacheControl = page.headers.get('cache-control')
      expect(cacheControl, path).toBe('private, no-cache')
      expect(cacheControl).not.toMatch(/s-maxage|public|stale-while-revalidate/)
    }
    // Again, from the page cache.
    const again = await worker.fetch('/about')
    expect(again.headers.get('cache-control')).toBe('private, no-cache')
    const missing = await worker.fetch('/no-such-page')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('cache-control')).toContain('no-store')
  })

  test("an open page's question after a failed chunk: a chunk of an older build is gone (404), one of this build is there (app/document/preload-recovery.ts)", async () => {
    const html = await (await worker.fetch('/')).text()
    const script = /["'](\/assets\/[^"']+\.js)["']/.exec(html)?.[1] ?? ''
    expect(script).toBeTruthy()
    const here = await worker.fetch(script, { method: 'HEAD', cache: 'no-store' })
    expect(here.status).toBe(200)
    const gone = await worker.fetch('/assets/MotionFrame-OlderBuild1.js', { method: 'HEAD', cache: 'no-store' })
    expect(gone.status).toBe(404)
  })

  test("the client entry's first line is V8's compile hint, so Chrome compiles it off the main thread", async () => {
    const html = await (await worker.fetch('/contact')).text()
    const [, sources = '[]', preloads = '[]'] = /\(document,(\[[^\]]*\]),(\[[^\]]*\])\)/.exec(html) ?? []
    const [entry] = JSON.parse(sources) as string[]
    expect(entry).toMatch(/^\/assets\/.+\.js$/)
    const code = await (await worker.fetch(entry ?? '')).text()
    expect(code.split('\n', 1)[0]).toBe('//# allFunctionsCalledOnLoad')
    // Only the entry: the route's chunks are not all called at once.
    const later = (JSON.parse(preloads) as string[]).filter((chunk) => chunk !== entry)
    expect(later.length).toBeGreaterThan(0)
    for (const chunk of later)
      expect(await (await worker.fetch(chunk)).text(), chunk).not.toContain('allFunctionsCalledOnLoad')
  })
})

describe('the canonical host', () => {
  test('a page on www. is sent permanently to the same page on the apex', async () => {
    const answer = await worker.fetch('http://www.aksharalabs.example/services/devops?from=ad')
    expect(answer.status).toBe(308)
    expect(answer.headers.get('location')).toBe('https://aksharalabs.example/services/devops?from=ad')
    expect(answer.headers.get('strict-transport-security')).toBeTruthy()

    const post = await worker.fetch('http://www.aksharalabs.example/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    })
    expect(post.status).toBe(308)
    expect(post.headers.get('location')).toBe('https://aksharalabs.example/api/contact')
  })

  test('the apex itself is served, not redirected', async () => {
    const answer = await worker.fetch('http://aksharalabs.example/services')
    expect(answer.status).toBe(200)
  })
})
