// @vitest-environment node

import { parseCookie as parseCookieHeader } from 'cookie-es'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  clearOutcomeCookies,
  handleFormPost,
  isNavigation,
  OUTCOME_COOKIE,
  outcomeCookies,
  readFormOutcome,
} from '~/contact/form-post.server'
import { MESSAGES } from '~/contact/schema'
import type { FormOutcome } from '~/contact/status'
import { EMPTY_VALUES } from '~/ledger'
import { serverFnStarted, undecodableAnswer } from '~/server/server-fn-guard.server'
import { type SqliteD1, sqliteD1 } from '../support/d1-sqlite'
import { contactEnv, fakeRateLimiter, waitUntilCollector } from '../support/fake-env'
import { type FormService, startFormService } from '../support/form-service'

const KEY = 'unit-key-no-js-91c2'
let service: FormService
let d1: SqliteD1

beforeAll(async () => {
  service = await startFormService(0, '127.0.0.1', { plan: 'paid' })
})
afterAll(async () => {
  await service.close()
})
beforeEach(() => {
  service.received.length = 0
  d1 = sqliteD1()
  for (const method of ['info', 'log', 'warn', 'error'] as const) vi.spyOn(console, method).mockImplementation(() => {})
})
afterEach(() => {
  d1.close()
})

/** Cookies for a hand-made outcome, as a sibling subdomain could set them. */
function forged(outcome: unknown): Record<string, string> {
  return { [`${OUTCOME_COOKIE}0`]: `1.${Buffer.from(JSON.stringify(outcome)).toString('base64url')}` }
}

/** The cookies a browser would send back after these Set-Cookie headers. */
function jar(setCookies: string[]): Record<string, string | undefined> {
  return parseCookieHeader(setCookies.map((cookie) => cookie.split(';')[0]).join('; '))
}

const values = {
  ...EMPTY_VALUES,
  name: 'శ్రీనివాస్ "Srini" Rao',
  email: 'srini@example.com',
  company: 'Godavari Foods; Ltd=1',
  subject: 'website',
  message: 'Line one\nLine two — ✓',
}

describe('the outcome cookie', () => {
  it('carries an outcome and its values back, and nothing else; Secure over HTTPS', () => {
    const outcome: FormOutcome = { status: 'failure', values }
    const cookies = outcomeCookies(outcome, false)
    expect(cookies).toHaveLength(1)
    expect(cookies[0]).toMatch(
      /^contact_outcome_0=1\.[A-Za-z0-9_-]+; Path=\/contact; Max-Age=120; HttpOnly; SameSite=Strict$/,
    )
    expect(readFormOutcome(jar(cookies))).toEqual(outcome)
    expect(outcomeCookies({ status: 'success' }, true)[0], 'over HTTPS').toMatch(/; Secure$/)
  })

  it('splits a long message over several cookies of at most 4 KB', () => {
    const outcome: FormOutcome = {
      status: 'invalid',
      values: { ...values, message: 'నమస్కారం 👋 '.repeat(450) },
      errors: { email: 'emailInvalid' },
    }
    const cookies = outcomeCookies(outcome, false)
    expect(cookies.length).toBeGreaterThan(2)
    for (const cookie of cookies) expect(cookie.length).toBeLessThan(4096)
    expect(readFormOutcome(jar(cookies))).toEqual(outcome)
  })

  it('ignores missing parts, tampering and foreign cookies', () => {
    const cookies = jar(outcomeCookies({ status: 'failure', values: { ...values, message: 'x'.repeat(5000) } }, false))
    const { [`${OUTCOME_COOKIE}1`]: _dropped, ...partial } = cookies
    expect(readFormOutcome(partial)).toBeNull()
    expect(readFormOutcome({ [`${OUTCOME_COOKIE}0`]: '1.eyJzdGF0dXMiOiJoYWNrZWQifQ' })).toBeNull()
    expect(readFormOutcome({ [`${OUTCOME_COOKIE}0`]: '1.%%%' })).toBeNull()
    expect(readFormOutcome({ [`${OUTCOME_COOKIE}0`]: '99.abc' })).toBeNull()
    expect(readFormOutcome({ other: 'x' })).toBeNull()
  })

  it('carries error codes, never words: errors holding any other text are refused', () => {
    const valid = { status: 'invalid', values, errors: { email: 'emailInvalid', name: 'nameRequired' } }
    expect(readFormOutcome(forged(valid))).toEqual(valid)
    for (const text of [MESSAGES.emailInvalid, 'Your account is suspended: call +1 555 0100', '<b>hi</b>', 'toString'])
      expect(readFormOutcome(forged({ ...valid, errors: { email: text } })), text).toBeNull()
    expect(readFormOutcome(forged({ status: 'success', message: 'Words from elsewhere' }))).toEqual({
      status: 'success',
    })
    expect(readFormOutcome(forged({ status: 'failure' }))).toBeNull()
  })

  it('is cleared with the same attributes', () => {
    const cookies = jar(outcomeCookies({ status: 'failure', values: { ...values, message: 'x'.repeat(5000) } }, false))
    const cleared = clearOutcomeCookies({ ...cookies, session: 'keep' }, false)
    expect(cleared).toHaveLength(Object.keys(cookies).length)
    for (const cookie of cleared)
      expect(cookie).toMatch(/^contact_outcome_\d=; Path=\/contact; Max-Age=0; HttpOnly; SameSite=Strict$/)
  })

  it("parses cookie headers without touching prototypes (Start's getCookies parser)", () => {
    const parsed = parseCookieHeader('__proto__=x; constructor=y; a=1; a=2')
    expect(parsed.a).toBe('1')
    expect(parsed.constructor).toBe('y')
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })
})

// The 303, its cookie, an invalid post, a repeat, refused bodies: tests/worker/contact-post.test.ts;
// success while delivery waits: enquiry-retries; a JSON not_stored: enquiry-storing.
describe('POST /api/contact (the form without JavaScript)', () => {
  async function handle(body: BodyInit, headers: Record<string, string> = {}) {
    const work = waitUntilCollector()
    const env = contactEnv({
      CONTACT_FORM_ENDPOINT: service.url,
      CONTACT_FORM_ACCESS_KEY: KEY,
      CONTACT_RATE_LIMITER: fakeRateLimiter(),
      ENQUIRIES: d1.db,
    })
    const request = new Request('http://localhost/api/contact', {
      method: 'POST',
      body,
      headers: { 'Sec-Fetch-Mode': 'navigate', ...headers },
    })
    const response = await handleFormPost(request, { env, waitUntil: work.waitUntil })
    await work.settle()
    return response
  }

  it('keeps the values for the page when the enquiry cannot be stored', async () => {
    d1.broken = true
    const response = await handle(new URLSearchParams(values), { 'Content-Type': 'application/x-www-form-urlencoded' })
    expect(response.status).toBe(303)
    expect(readFormOutcome(jar(response.headers.getSetCookie()))).toEqual({ status: 'failure', values })
    expect(service.received).toHaveLength(0)
  })

  it('accepts multipart form data too', async () => {
    const data = new FormData()
    for (const [key, value] of Object.entries(values)) data.set(key, value)
    expect((await handle(data)).status).toBe(303)
    expect(service.received).toHaveLength(1)
  })

  it('tells navigations from other requests', () => {
    const r = (headers: Record<string, string>) => new Request('http://localhost/', { headers })
    expect(isNavigation(r({ 'Sec-Fetch-Mode': 'navigate' }))).toBe(true)
    expect(isNavigation(r({ 'Sec-Fetch-Mode': 'cors', Accept: 'text/html' }))).toBe(false)
    expect(isNavigation(r({ Accept: 'text/html,application/xhtml+xml' }))).toBe(true)
    expect(isNavigation(r({ Accept: 'application/json' }))).toBe(false)
  })
})

describe('server function requests Start cannot decode', () => {
  it('become 400 malformed_body, or 404 for an unknown function', async () => {
    const request = new Request('http://localhost/_serverFn/abc', { method: 'POST' })
    expect(serverFnStarted(request)).toBe(false)
    const seroval = new Response('{"t":10,"error":"Seroval Error"}', { status: 500 })
    const malformed = await undecodableAnswer(request, seroval)
    expect(malformed.status).toBe(400)
    const message = 'The request body could not be decoded.'
    expect(await malformed.json()).toEqual({ ok: false, error: 'malformed_body', message })
    const unknown = await undecodableAnswer(request, new Error('Server function info not found for abc'))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: 'unknown_function' })
  })
})
