// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  DEFAULT_FORM_ENDPOINT,
  endpointUrl,
  FORM_SERVICE_TIMEOUT_MS,
  formEndpoint,
  formService,
  MAX_ANSWER_BYTES,
  sendToFormService,
} from '~/contact/deliveries/form-service.server'
import type { Enquiry } from '~/ledger'
import { contactEnv } from '../support/fake-env'
import { type FormService, type Scenario, startFormService } from '../support/form-service'
import { ledgerEnquiry } from '../support/values'

const KEY = 'unit-test-server-key-7f3a'

let service: FormService

beforeAll(async () => {
  service = await startFormService(0, '127.0.0.1', { plan: 'paid' })
})
afterAll(async () => {
  await service.close()
})
beforeEach(() => {
  service.received.length = 0
})

/** A fresh enquiry with its own address, so each test can give the stand-in its own scenario. */
const enquiry = (overrides: Partial<Enquiry> = {}) =>
  ledgerEnquiry('visitor', { name: 'Ravi Kumar', subject: 'devops', message: 'Please call me back.', ...overrides })
const env = (endpoint = service.url) => contactEnv({ CONTACT_FORM_ENDPOINT: endpoint, CONTACT_FORM_ACCESS_KEY: KEY })

async function sendWith(scenario: Scenario, timeoutMs = 2_000) {
  const e = enquiry()
  service.setScenario(e.email, scenario)
  const started = Date.now()
  const result = await sendToFormService(e, env(), timeoutMs)
  return { result, elapsed: Date.now() - started, email: e.email }
}

describe('the form-service delivery against a real HTTP server', () => {
  it('posts exactly the six spec fields as JSON, unicode intact, with the server key, and reads success: true', async () => {
    const fields = { name: 'శ్రీనివాస్', company: '', subject: 'devops', message: 'నమస్కారం 👋\nSecond line' }
    // Whatever else the enquiry holds (a client's access_key, the honeypot) stays behind.
    const e = { ...enquiry(fields), access_key: 'from-the-client', website: 'spam' } as Enquiry
    expect((await sendToFormService(e, env())).ok).toBe(true)
    const [request] = service.received
    expect(service.received).toHaveLength(1)
    expect(request).toMatchObject({ method: 'POST', path: '/submit' })
    expect(request?.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' })
    expect(request?.json).toEqual({ ...fields, email: e.email, access_key: KEY })
  })

  const failures: [string, Scenario, string, Record<string, unknown>?][] = [
    ['success: false', { kind: 'failure' }, 'upstream_refused', { upstreamStatus: 200 }],
    ['400', { kind: 'status', status: 400 }, 'upstream_status', { upstreamStatus: 400 }],
    ['401 with a text body', { kind: 'status', status: 401, body: 'Unauthorized' }, 'upstream_status'],
    ['403', { kind: 'status', status: 403 }, 'upstream_status', { upstreamStatus: 403 }],
    ['429', { kind: 'status', status: 429 }, 'upstream_status', { upstreamStatus: 429 }],
    ['500', { kind: 'status', status: 500 }, 'upstream_status', { upstreamStatus: 500 }],
    ['503', { kind: 'status', status: 503, body: 'Service Unavailable' }, 'upstream_status', { upstreamStatus: 503 }],
    ['an HTML page', { kind: 'html' }, 'upstream_not_json', { upstreamStatus: 200 }],
    ['truncated JSON', { kind: 'truncated' }, 'upstream_not_json'],
    ['JSON without success', { kind: 'status', status: 200, body: '{"ok":true}' }, 'upstream_unexpected_answer'],
    ['success as a string', { kind: 'status', status: 200, body: '{"success":"true"}' }, 'upstream_unexpected_answer'],
    ['an empty body', { kind: 'status', status: 200, body: '' }, 'upstream_not_json'],
    ['a redirect', { kind: 'redirect', location: 'http://127.0.0.1:9/elsewhere' }, 'upstream_status'],
    ['a reset connection', { kind: 'reset' }, 'upstream_unreachable'],
  ]

  it.each(failures)('fails on %s: one request, no retry', async (_, scenario, cause, detail) => {
    const { result } = await sendWith(scenario)
    expect(!result.ok && result.cause).toBe(cause)
    if (detail) expect(result.detail).toMatchObject(detail)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(service.received).toHaveLength(1)
  })

  it('does not follow a redirect: the key never travels to another address', async () => {
    const other = await startFormService(0, '127.0.0.1', { plan: 'paid' })
    try {
      const { result } = await sendWith({ kind: 'redirect', location: other.url })
      expect(result.ok).toBe(false)
      expect(other.received).toHaveLength(0)
    } finally {
      await other.close()
    }
  })

  it('is refused by a form service on a free plan, as Web3Forms refuses server-side posts (upstream_refused)', async () => {
    const free = await startFormService(0, '127.0.0.1', { plan: 'free' })
    try {
      const result = await sendToFormService(enquiry(), env(free.url))
      expect(result).toMatchObject({ ok: false, cause: 'upstream_refused' })
      expect(free.received).toHaveLength(1)
      // A browser's post (it always sends Origin) is accepted on the same plan.
      const browser = await fetch(free.url, { method: 'POST', headers: { Origin: 'https://company.in' }, body: '{}' })
      expect(await browser.json()).toMatchObject({ success: true })
    } finally {
      await free.close()
    }
  })

  it('waits for a slow answer that comes in time', async () => {
    const { result, elapsed } = await sendWith({ kind: 'slow', delayMs: 300 }, 2_000)
    expect(result.ok).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(290)
    expect(service.received).toHaveLength(1)
  })

  it('gives up on a service that never answers, after the time-out, without retrying', async () => {
    const { result, elapsed } = await sendWith({ kind: 'hang' }, 400)
    expect(!result.ok && result.cause).toBe('upstream_timeout')
    expect(elapsed).toBeGreaterThanOrEqual(390)
    expect(elapsed).toBeLessThan(2_000)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(service.received).toHaveLength(1)
  })

  it('reads at most 64 KB of a gigantic answer, then fails', async () => {
    const { result, elapsed } = await sendWith({ kind: 'huge', bytes: 50 * 1024 * 1024 }, 5_000)
    expect(MAX_ANSWER_BYTES).toBe(64 * 1024)
    expect(!result.ok && result.cause).toBe('upstream_answer_too_large')
    expect(elapsed).toBeLessThan(3_000)
    expect(service.received).toHaveLength(1)
  })

  it('accepts an answer just under the limit', async () => {
    const padding = 'x'.repeat(MAX_ANSWER_BYTES - 100)
    const { result } = await sendWith({ kind: 'status', status: 200, body: `{"success":true,"p":"${padding}"}` })
    expect(result.ok).toBe(true)
  })

  it('fails when nothing listens at the endpoint', async () => {
    const closed = await startFormService(0, '127.0.0.1', { plan: 'paid' })
    await closed.close()
    const result = await sendToFormService(enquiry(), env(closed.url))
    expect(!result.ok && result.cause).toBe('upstream_unreachable')
  })

  it('sends nothing without a key, or with a blank one', async () => {
    for (const key of [undefined, '', '   ']) {
      const result = await sendToFormService(enquiry(), { ...env(), CONTACT_FORM_ACCESS_KEY: key })
      expect(!result.ok && result.cause).toBe('missing_access_key')
    }
    expect(service.received).toHaveLength(0)
    expect(formService.missing(contactEnv({ CONTACT_FORM_ACCESS_KEY: ' ' }))).toEqual(['CONTACT_FORM_ACCESS_KEY'])
    expect(formService.missing(contactEnv({ CONTACT_FORM_ACCESS_KEY: KEY }))).toEqual([])
  })

  it('uses the Web3Forms endpoint unless CONTACT_FORM_ENDPOINT says otherwise', () => {
    expect(DEFAULT_FORM_ENDPOINT).toBe('https://api.web3forms.com/submit')
    expect(formEndpoint(contactEnv({}))).toBe(DEFAULT_FORM_ENDPOINT)
    expect(formEndpoint(contactEnv({ CONTACT_FORM_ENDPOINT: ' ' }))).toBe(DEFAULT_FORM_ENDPOINT)
    expect(formEndpoint(contactEnv({ CONTACT_FORM_ENDPOINT: service.url }))).toBe(service.url)
  })

  it('gives up after 10 seconds in production', async () => {
    expect(FORM_SERVICE_TIMEOUT_MS).toBe(10_000)
    const timeout = vi.spyOn(AbortSignal, 'timeout')
    await formService.deliver(enquiry(), { env: env(), requestId: 'r' })
    expect(timeout).toHaveBeenCalledWith(10_000)
  })

  describe('the endpoint: the key travels over https only', () => {
    it.each([
      ['https://api.web3forms.com/submit', true],
      ['https://forms.example.com:8443/submit', true],
      ['http://127.0.0.1:8799/submit', true],
      ['http://localhost:8799/submit', true],
      ['http://[::1]:8799/submit', true],
      ['http://api.web3forms.com/submit', false],
      ['http://forms.example.com/submit', false],
      ['http://127.0.0.1.nip.io/submit', false],
      ['http://localhost.example.com/submit', false],
      ['http://10.0.0.1/submit', false],
      ['ftp://api.web3forms.com/submit', false],
      ['api.web3forms.com/submit', false],
      ['not a url', false],
    ])('%s: accepted %s (https://, or plain http:// on a loopback address: the tests’ stand-in)', (url, accepted) => {
      expect(endpointUrl(url)?.href ?? null).toBe(accepted ? new URL(url).href : null)
    })

    it('sends nothing to an http:// endpoint: invalid_endpoint, and CONTACT_FORM_ENDPOINT is named as missing', async () => {
      const fetchSpy = vi.spyOn(globalThis, 'fetch')
      const insecure = env('http://forms.example.com/submit')
      const result = await sendToFormService(enquiry(), insecure)
      expect(result).toEqual({ ok: false, cause: 'invalid_endpoint' })
      expect(fetchSpy).not.toHaveBeenCalled()
      expect(formService.missing(insecure)).toEqual(['CONTACT_FORM_ENDPOINT'])
      const keyless = contactEnv({ CONTACT_FORM_ENDPOINT: 'http://forms.example.com/submit' })
      expect(formService.missing(keyless)).toEqual(['CONTACT_FORM_ACCESS_KEY', 'CONTACT_FORM_ENDPOINT'])
    })
  })
})
