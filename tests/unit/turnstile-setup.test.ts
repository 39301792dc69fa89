// @vitest-environment node
// Turnstile's set-up: on with both keys, what operators see, the CSP it opens, the stand-in siteverify's address.
import { describe, expect, it } from 'vitest'
import { healthReport } from '~/contact/health.server'
import { SITEVERIFY_URL, siteverifyUrl, turnstileSetup } from '~/contact/turnstile.server'
import { contentSecurityPolicy } from '~/server/security-headers.server'
import { contactEnv } from '../support/fake-env'

const SECRET = 'turnstile-secret-0x4AAAA-unit'
const SITE_KEY = '0x4AAAAAAunit-site-key'
const env = (extra: Record<string, unknown> = {}) =>
  contactEnv({ TURNSTILE_SITE_KEY: SITE_KEY, TURNSTILE_SECRET_KEY: SECRET, ...extra })

describe('Turnstile is on only with both keys', () => {
  it('is off with neither, and off, naming the other, with one', () => {
    expect(turnstileSetup({})).toEqual({ on: false, missing: [] })
    expect(turnstileSetup({ TURNSTILE_SITE_KEY: SITE_KEY })).toEqual({ on: false, missing: ['TURNSTILE_SECRET_KEY'] })
    expect(turnstileSetup({ TURNSTILE_SECRET_KEY: SECRET })).toEqual({ on: false, missing: ['TURNSTILE_SITE_KEY'] })
    expect(turnstileSetup({ TURNSTILE_SITE_KEY: SITE_KEY, TURNSTILE_SECRET_KEY: SECRET })).toMatchObject({ on: true })
  })

  it('shows operators on, off or the missing half, never a key', () => {
    expect(healthReport(env()).turnstile).toBe('on')
    expect(healthReport(env({ TURNSTILE_SITE_KEY: '', TURNSTILE_SECRET_KEY: '' })).turnstile).toBe('off')
    expect(healthReport(env({ TURNSTILE_SECRET_KEY: '' })).turnstile).toEqual({ missing: ['TURNSTILE_SECRET_KEY'] })
    expect(JSON.stringify(healthReport(env()))).not.toContain(SECRET)
  })

  it('opens the CSP to challenges.cloudflare.com for scripts and frames only while on', () => {
    const off = contentSecurityPolicy('n0nce')
    expect(off).not.toContain('challenges.cloudflare.com')
    expect(off).toContain("frame-src 'none'")
    const on = contentSecurityPolicy('n0nce', { turnstile: true })
    const directives = on.split('; ').filter((d) => d.includes('challenges.cloudflare.com'))
    expect(directives).toEqual([
      "script-src 'self' 'nonce-n0nce' https://challenges.cloudflare.com",
      'frame-src https://challenges.cloudflare.com',
    ])
  })
})

describe('the stand-in siteverify override', () => {
  it('is used only on a loopback address', () => {
    expect(siteverifyUrl({})).toBe(SITEVERIFY_URL)
    expect(siteverifyUrl({ TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' })).toBe(
      'http://127.0.0.1:9/siteverify',
    )
    expect(siteverifyUrl({ TURNSTILE_VERIFY_URL: 'http://[::1]:9/x' })).toBe('http://[::1]:9/x')
    const elsewhere = ['https://evil.example/siteverify', 'http://127.0.0.1.evil.example/', 'http://u:p@127.0.0.1/']
    for (const bad of [...elsewhere, 'nonsense']) expect(siteverifyUrl({ TURNSTILE_VERIFY_URL: bad }), bad).toBeNull()
  })
})
