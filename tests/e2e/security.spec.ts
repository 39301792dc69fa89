import { expect, type Page, test } from '@playwright/test'
import { collectProblems, gotoHydrated } from '../support/page'
import { PAGES } from '../support/routes'

const SECURITY_HEADERS: Record<string, RegExp> = {
  'strict-transport-security': /^max-age=63072000; includeSubDomains$/,
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^strict-origin-when-cross-origin$/,
  'permissions-policy': /^(?=.*\bcamera=\(\))(?=.*\bmicrophone=\(\))(?=.*\bgeolocation=\(\))/,
  'cross-origin-opener-policy': /^same-origin$/,
  'content-security-policy': /default-src '(self|none)'/,
}

function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  for (const [name, pattern] of Object.entries(SECURITY_HEADERS)) {
    expect(headers[name], `${name} on ${what}`).toMatch(pattern)
  }
}

/** Records every CSP violation the page reports, from before its first script runs. */
async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      )
    })
  })
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

test('pages carry a strict CSP with a fresh nonce that every inline script uses', async ({ request }) => {
  const first = await request.get('/')
  const second = await request.get('/')
  const csp = first.headers()['content-security-policy'] ?? ''
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
  expect(nonce).toBeTruthy()
  expect(second.headers()['content-security-policy']).not.toContain(nonce)

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
  ]) {
    expect(csp).toContain(directive)
  }
  expect(csp).not.toContain('unsafe-inline')
  expect(csp).not.toContain('unsafe-eval')
  // Turnstile is off on this server: its origin is nowhere in the policy, and no frame may load.
  expect(csp).not.toContain('challenges.cloudflare.com')
  expect(csp).toContain("frame-src 'none'")

  const html = await first.text()
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '')
  expect(scripts.length).toBeGreaterThan(0)
  for (const attrs of scripts) {
    if (/type="application\/ld\+json"/.test(attrs)) continue
    expect(attrs, 'every executable script carries the nonce').toContain(`nonce="${nonce}"`)
  }
  expect(html, 'no inline style attributes (the CSP would block them)').not.toMatch(/\sstyle="/)
  expectSecurityHeaders(first.headers(), 'a page')
})

test('server routes, server-function answers and static files carry the security headers', async ({
  request,
  baseURL,
}) => {
  const robots = await request.get('/robots.txt')
  expect(robots.status()).toBe(200)
  expectSecurityHeaders(robots.headers(), '/robots.txt')

  const crossSite = await request.post('/_serverFn/unknown', {
    headers: { Origin: 'https://attacker.example', 'Content-Type': 'application/json' },
    data: '{}',
  })
  expect(crossSite.status()).toBe(403)
  expectSecurityHeaders(crossSite.headers(), 'a refused server-function call')

  const unknown = await request.post('/_serverFn/unknown', {
    headers: { Origin: baseURL ?? '', 'Content-Type': 'application/json' },
    data: '{}',
  })
  expect(unknown.status()).toBe(404)
  expect(await unknown.json()).toMatchObject({ ok: false, error: 'unknown_function' })
  expectSecurityHeaders(unknown.headers(), 'a server-function answer')

  const favicon = await request.get('/favicon.svg')
  expect(favicon.status()).toBe(200)
  expectSecurityHeaders(favicon.headers(), '/favicon.svg')
  // Un-hashed files (the logo is favicon.svg) stay fresh a day rather than being revalidated per view.
  const unhashedCaching = 'public, max-age=86400, stale-while-revalidate=604800'
  expect(favicon.headers()['cache-control']).toBe(unhashedCaching)
  const illustration = await request.get('/images/services/devops.svg')
  expect(illustration.status()).toBe(200)
  expect(illustration.headers()['cache-control']).toBe(unhashedCaching)

  const html = await (await request.get('/')).text()
  // The client entry, named in the inline loader that starts it after the first paint.
  const script = /["'](\/assets\/[^"']+\.js)["']/.exec(html)?.[1]
  expect(script).toBeTruthy()
  const asset = await request.get(script ?? '')
  expect(asset.status()).toBe(200)
  expectSecurityHeaders(asset.headers(), script ?? 'asset')
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
})

test('HTML is kept by the browser only and revalidated on every use; error pages are not stored', async ({
  request,
}) => {
  const page = await request.get('/services')
  expect(page.headers()['cache-control']).toBe('private, no-cache')
  const missing = await request.get('/no-such-page')
  expect(missing.status()).toBe(404)
  expect(missing.headers()['cache-control']).toContain('no-store')
})

test('every response names its request id', async ({ request }) => {
  const a = await request.get('/about')
  const b = await request.get('/about')
  expect(a.headers()['x-request-id']).toMatch(/^[\w-]{8,}$/)
  expect(a.headers()['x-request-id']).not.toBe(b.headers()['x-request-id'])
})

test.describe('with the motion a visitor sees by default', () => {
  test.use({ reducedMotion: 'no-preference' })

  test('no page reports a Content-Security-Policy violation, with or without navigation', async ({ page }) => {
    // Thirteen full page loads, each waited on until hydrated (which starts after its first paint).
    test.slow()
    const violations = await recordCspViolations(page)
    const problems = collectProblems(page)
    for (const { path } of PAGES) await gotoHydrated(page, path)
    await gotoHydrated(page, '/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click()
    await expect(page).toHaveURL('/services')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).click()
    await expect(page).toHaveURL('/contact')
    expect(violations).toEqual([])
    expect(problems).toEqual([])
  })
})

test('the site cannot be framed by another origin', async ({ request }) => {
  const res = await request.get('/')
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(res.headers()['x-frame-options']).toBe('DENY')
})

test('pages served on a workers.dev host (previews) ask search engines not to index them', async ({ request }) => {
  const preview = await request.get('/', { headers: { Host: 'pr-7-akshara-labs-site.example.workers.dev' } })
  expect(preview.headers()['x-robots-tag']).toBe('noindex')
  const canonical = await request.get('/')
  expect(canonical.headers()['x-robots-tag']).toBeUndefined()
})
