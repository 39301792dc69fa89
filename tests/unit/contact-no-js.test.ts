// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { FORM_RETURN_PATH, handleFormPost, isNavigation } from '~/contact/form-post.server'
import {
  clearOutcomeCookies,
  type FormOutcome,
  OUTCOME_COOKIE,
  outcomeCookies,
  parseCookieHeader,
  readOutcome,
} from '~/contact/outcome-cookie'
import { serverFnStarted, undecodableAnswer } from '~/contact/server-fn-guard.server'
import { contactEnv, fakeKv, fakeRateLimiter } from '../support/fake-env'
import { type FormService, startFormService } from '../support/form-service'

const KEY = 'unit-key-no-js-91c2'
let service: FormService

beforeAll(async () => {
  service = await startFormService(0)
})
afterAll(async () => {
  await service.close()
})
beforeEach(() => {
  service.received.length = 0
  for (const method of ['info', 'log', 'warn', 'error'] as const) vi.spyOn(console, method).mockImplementation(() => {})
})

/** The cookies a browser would send back after these Set-Cookie headers. */
function jar(setCookies: string[]): Record<string, string> {
  return parseCookieHeader(setCookies.map((cookie) => cookie.split(';')[0]).join('; '))
}

const values = {
  name: 'శ్రీనివాస్ "Srini" Rao',
  email: 'srini@example.com',
  company: 'Godavari Foods; Ltd=1',
  subject: 'website',
  message: 'Line one\nLine two — ✓',
}

describe('the outcome cookie', () => {
  it('carries an outcome and its values back, and nothing else', () => {
    const outcome: FormOutcome = { status: 'failure', values }
    const cookies = outcomeCookies(outcome, false)
    expect(cookies).toHaveLength(1)
    expect(cookies[0]).toMatch(
      /^contact_outcome_0=1\.[A-Za-z0-9_-]+; Path=\/contact; Max-Age=120; HttpOnly; SameSite=Strict$/,
    )
    expect(readOutcome(jar(cookies))).toEqual(outcome)
  })

  it('is Secure over HTTPS', () => {
    expect(outcomeCookies({ status: 'success' }, true)[0]).toMatch(/; Secure$/)
  })

  it('splits a long message over several cookies of at most 4 KB', () => {
    const outcome: FormOutcome = {
      status: 'invalid',
      values: { ...values, message: 'నమస్కారం 👋 '.repeat(450) },
      errors: { email: 'Please enter a valid email address, like name@example.com.' },
    }
    const cookies = outcomeCookies(outcome, false)
    expect(cookies.length).toBeGreaterThan(2)
    for (const cookie of cookies) expect(cookie.length).toBeLessThan(4096)
    expect(readOutcome(jar(cookies))).toEqual(outcome)
  })

  it('ignores missing parts, tampering and foreign cookies', () => {
    const cookies = jar(outcomeCookies({ status: 'failure', values: { ...values, message: 'x'.repeat(5000) } }, false))
    const { [`${OUTCOME_COOKIE}1`]: _dropped, ...partial } = cookies
    expect(readOutcome(partial)).toBeNull()
    expect(readOutcome({ [`${OUTCOME_COOKIE}0`]: '1.eyJzdGF0dXMiOiJoYWNrZWQifQ' })).toBeNull()
    expect(readOutcome({ [`${OUTCOME_COOKIE}0`]: '1.%%%' })).toBeNull()
    expect(readOutcome({ [`${OUTCOME_COOKIE}0`]: '99.abc' })).toBeNull()
    expect(readOutcome({ other: 'x' })).toBeNull()
  })

  it('is cleared with the same attributes', () => {
    const cookies = jar(outcomeCookies({ status: 'failure', values: { ...values, message: 'x'.repeat(5000) } }, false))
    const cleared = clearOutcomeCookies({ ...cookies, session: 'keep' }, false)
    expect(cleared).toHaveLength(Object.keys(cookies).length)
    for (const cookie of cleared)
      expect(cookie).toMatch(/^contact_outcome_\d=; Path=\/contact; Max-Age=0; HttpOnly; SameSite=Strict$/)
  })

  it('parses cookie headers without touching prototypes', () => {
    const parsed = parseCookieHeader('__proto__=x; constructor=y; a=1; a=2')
    expect(parsed.a).toBe('1')
    expect(parsed.constructor).toBe('y')
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })
})

describe('POST /api/contact (the form without JavaScript)', () => {
  const env = () =>
    contactEnv({
      CONTACT_FORM_ENDPOINT: service.url,
      CONTACT_FORM_ACCESS_KEY: KEY,
      CONTACT_RATE_LIMITER: fakeRateLimiter(),
      OUTBOX: fakeKv(),
    })

  function post(body: BodyInit, headers: Record<string, string> = {}) {
    return new Request('http://localhost:8787/api/contact', {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Mode': 'navigate',
        Accept: 'text/html',
        ...headers,
      },
    })
  }

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

  it('delivers and sends the browser back to /contact with 303 and the outcome in a cookie', async () => {
    const response = await handleFormPost(post(form({ ...values, access_key: 'from-browser' })), env())
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe(FORM_RETURN_PATH)
    expect(FORM_RETURN_PATH).toBe('/contact#contact-status')
    expect(response.headers.get('Location')).not.toContain('srini')
    const cookies = response.headers.getSetCookie()
    expect(readOutcome(jar(cookies))).toEqual({ status: 'success' })
    expect(service.received).toHaveLength(1)
    expect(service.received[0]?.json).toMatchObject({ name: values.name, access_key: KEY })
  })

  it('keeps the values for the page when delivery fails', async () => {
    service.setScenario(values.email, { kind: 'status', status: 500 })
    try {
      const response = await handleFormPost(post(form(values)), env())
      expect(response.status).toBe(303)
      expect(readOutcome(jar(response.headers.getSetCookie()))).toEqual({ status: 'failure', values })
    } finally {
      service.setScenario(values.email, { kind: 'success' })
    }
  })

  it('sends invalid input back with the messages, and forwards nothing', async () => {
    const response = await handleFormPost(post(form({ ...values, name: '   ', email: 'nope' })), env())
    expect(response.status).toBe(303)
    const outcome = readOutcome(jar(response.headers.getSetCookie()))
    expect(outcome?.status).toBe('invalid')
    expect(outcome?.status === 'invalid' && Object.keys(outcome.errors)).toEqual(['name', 'email'])
    expect(outcome?.status === 'invalid' && outcome.values.email).toBe('nope')
    expect(service.received).toHaveLength(0)
  })

  it('answers a script or API client in JSON, with 400 for invalid input', async () => {
    const response = await handleFormPost(
      post(form({ name: 'x' }), { 'Sec-Fetch-Mode': 'cors', Accept: 'application/json' }),
      env(),
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ ok: false, error: 'invalid_input' })
    const ok = await handleFormPost(post(form(values), { 'Sec-Fetch-Mode': 'cors', Accept: '*/*' }), env())
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ ok: true })
  })

  it('refuses other content types with 415 and malformed bodies with 400', async () => {
    const json = await handleFormPost(post(JSON.stringify(values), { 'Content-Type': 'application/json' }), env())
    expect(json.status).toBe(415)
    expect(await json.json()).toMatchObject({ error: 'unsupported_media_type' })
    const none = await handleFormPost(new Request('http://localhost/api/contact', { method: 'POST', body: 'x' }), env())
    expect(none.status).toBe(415)
    const broken = await handleFormPost(
      post('--xx\r\nContent-Disposition: form-data; name="name"\r\n\r\nRavi', {
        'Content-Type': 'multipart/form-data; boundary=xx',
      }),
      env(),
    )
    expect(broken.status).toBe(400)
    expect(await broken.json()).toMatchObject({ error: 'malformed_body' })
    expect(service.received).toHaveLength(0)
  })

  it('accepts multipart form data too', async () => {
    const data = new FormData()
    for (const [key, value] of Object.entries(values)) data.set(key, value)
    const request = new Request('http://localhost/api/contact', {
      method: 'POST',
      body: data,
      headers: { 'Sec-Fetch-Mode': 'navigate' },
    })
    const response = await handleFormPost(request, env())
    expect(response.status).toBe(303)
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
    const malformed = await undecodableAnswer(
      request,
      new Response('{"t":10,"error":"Seroval Error"}', { status: 500 }),
    )
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toEqual({
      ok: false,
      error: 'malformed_body',
      message: 'The request body could not be decoded.',
    })
    const unknown = await undecodableAnswer(request, new Error('Server function info not found for abc'))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: 'unknown_function' })
  })
})
