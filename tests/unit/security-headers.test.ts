// @vitest-environment node
// `upgrade-insecure-requests`: kept everywhere a deployed site is reached, left out only for plain http
// on this machine's own address, where WebKit would fetch every asset from an https server that is not there.
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, upgradesInsecureRequests, withSecurityHeaders } from '~/server/security-headers.server'

const page = () => new Response('<!doctype html><p>hi</p>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
const directives = (csp: string | null) => (csp ?? '').split('; ')

describe('upgradesInsecureRequests', () => {
  it.each([
    'http://localhost:8787/',
    'http://localhost:12000/contact?x=1',
    'http://127.0.0.1:8787/',
    'http://[::1]:8787/about',
    'http://LOCALHOST:8787/', // the URL parser lower-cases the host
  ])('is off for plain http on a loopback host: %s', (url) => {
    expect(upgradesInsecureRequests(url)).toBe(false)
  })

  it.each([
    'https://aksharalabs.in/',
    'http://aksharalabs.in/', // a visitor on plain http to the real site: the directive protects them
    'https://akshara-labs-site.example.workers.dev/',
    'http://akshara-labs-site.example.workers.dev/',
    'https://localhost:8787/', // a TLS proxy in front of the local server: upgrading works there
    'https://127.0.0.1:8443/',
    'http://localhost.aksharalabs.in/', // names that only look local
    'http://127.0.0.1.nip.io/',
    'http://10.0.0.5:8787/', // another machine on the network is not this one
    'http://192.168.1.10:8787/',
    'not a url',
    '',
  ])('is on everywhere else: %s', (url) => {
    expect(upgradesInsecureRequests(url)).toBe(true)
  })
})

describe('the page CSP', () => {
  it('carries upgrade-insecure-requests unless told otherwise', () => {
    expect(directives(contentSecurityPolicy('n0nce'))).toContain('upgrade-insecure-requests')
    const local = contentSecurityPolicy('n0nce', { upgradeInsecureRequests: false })
    expect(directives(local)).not.toContain('upgrade-insecure-requests')
    // Nothing else is loosened: the policy is the same, less that one directive.
    expect(directives(local)).toEqual(
      directives(contentSecurityPolicy('n0nce')).filter((d) => d !== 'upgrade-insecure-requests'),
    )
  })

  it.each([
    ['a loopback page', 'http://localhost:8787/', false],
    ['a deployed page', 'https://aksharalabs.in/', true],
    ['a caller that does not say (the production policy)', undefined, true],
  ])('is sent for %s with the directive: %s', (_, url, upgrade) => {
    const says = url === undefined ? {} : { upgradeInsecureRequests: upgradesInsecureRequests(url) }
    const csp = withSecurityHeaders(page(), { nonce: 'n0nce', requestId: 'r1', ...says }).headers.get(
      'Content-Security-Policy',
    )
    expect(directives(csp).includes('upgrade-insecure-requests')).toBe(upgrade)
    expect(csp).toContain("script-src 'self' 'nonce-n0nce'")
  })
})
