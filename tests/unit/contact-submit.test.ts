// @vitest-environment node
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import {
  clientAddress,
  invalidInputAnswer,
  isLocalRequest,
  outcomeAnswer,
  submitEnquiry,
} from '~/contact/contact.server'
import { DELIVERIES, planDelivery } from '~/contact/deliveries/index.server'
import { OUTBOX_TTL_SECONDS } from '~/contact/deliveries/outbox.server'
import { formatEnquiry, type OutboxRecord } from '~/contact/enquiry'
import { healthReport } from '~/contact/health.server'
import { type ContactSubmission, contactSubmissionSchema } from '~/contact/schema'
import { FAILURE_MESSAGE } from '~/contact/status'
import { contactEnv, FakeEmailMessage, fakeEmailBinding, fakeKv, fakeRateLimiter } from '../support/fake-env'
import { type FormService, startFormService } from '../support/form-service'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

const KEY = 'unit-key-d41d8cd98f00'
const SECRET_WORDS = 'a confidential project about pumps'

let service: FormService
let counter = 0
let consoleSpies: MockInstance[] = []

beforeAll(async () => {
  service = await startFormService(0)
})
afterAll(async () => {
  await service.close()
})
beforeEach(() => {
  service.received.length = 0
  consoleSpies = (['info', 'log', 'warn', 'error'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(() => {}),
  )
})

/** Every line the code printed, with the structured ones parsed. */
function printed() {
  const lines = consoleSpies.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(' ')))
  const json = lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>]
    } catch {
      return []
    }
  })
  return { lines, json }
}

function submission(overrides: Partial<ContactSubmission> = {}): ContactSubmission {
  counter += 1
  return v.parse(contactSubmissionSchema, {
    name: 'Ravi Kumar',
    email: `client-${counter}@example.com`,
    company: 'Godavari Foods',
    subject: 'automation',
    message: `Hello, ${SECRET_WORDS}.`,
    ...overrides,
  })
}

function request(ip = `198.51.100.${counter % 250}`, url = 'http://localhost:8787/_serverFn/x') {
  return new Request(url, { method: 'POST', headers: { 'CF-Connecting-IP': ip } })
}

function withKey(extra: Record<string, unknown> = {}) {
  return contactEnv({
    CONTACT_DELIVERY: 'form-service',
    CONTACT_FORM_ENDPOINT: service.url,
    CONTACT_FORM_ACCESS_KEY: KEY,
    CONTACT_RATE_LIMITER: fakeRateLimiter(),
    OUTBOX: fakeKv(),
    ...extra,
  })
}

function expectNoPersonalData(lines: string[], data: ContactSubmission) {
  for (const line of lines) {
    expect(line).not.toContain(SECRET_WORDS)
    expect(line).not.toContain(data.email)
    expect(line).not.toContain(KEY)
  }
}

describe('submitting an enquiry', () => {
  it('delivers through the form service and logs one line with the outcome', async () => {
    const data = submission()
    const outcome = await submitEnquiry(data, { env: withKey(), request: request() })
    expect(outcome).toEqual({ kind: 'sent' })
    expect(service.received).toHaveLength(1)
    expect(service.received[0]?.json).toMatchObject({ email: data.email, access_key: KEY })
    const { json, lines } = printed()
    expect(json).toHaveLength(1)
    expect(json[0]).toMatchObject({ event: 'contact', outcome: 'sent', delivery: 'form-service', level: 'info' })
    expect(typeof json[0]?.requestId).toBe('string')
    expectNoPersonalData(lines, data)
  })

  it('never forwards an access_key sent by a client', async () => {
    const data = v.parse(contactSubmissionSchema, { ...submission(), access_key: 'from-the-browser' })
    await submitEnquiry(data, { env: withKey(), request: request() })
    expect(service.received[0]?.json).toMatchObject({ access_key: KEY })
    expect(service.received[0]?.raw).not.toContain('from-the-browser')
  })

  it('answers as if sent when the honeypot is filled, and forwards and keeps nothing', async () => {
    const env = withKey()
    const outcome = await submitEnquiry(submission({ website: 'https://spam.example' }), { env, request: request() })
    expect(outcome).toEqual({ kind: 'ignored' })
    expect(outcomeAnswer(outcome, request()).status).toBe(200)
    expect(service.received).toHaveLength(0)
    expect((env.OUTBOX as unknown as ReturnType<typeof fakeKv>).entries.size).toBe(0)
    expect(printed().json[0]).toMatchObject({ outcome: 'ignored', cause: 'honeypot' })
  })

  describe('rate limit', () => {
    it('lets 5 messages a minute through from one client and refuses the 6th without forwarding it', async () => {
      const env = withKey()
      const outcomes = []
      for (let i = 0; i < 6; i++)
        outcomes.push(await submitEnquiry(submission(), { env, request: request('203.0.113.9') }))
      expect(outcomes.slice(0, 5)).toEqual(Array(5).fill({ kind: 'sent' }))
      expect(outcomes[5]).toEqual({ kind: 'rate_limited', retryAfter: 60 })
      expect(service.received).toHaveLength(5)
      const limiter = env.CONTACT_RATE_LIMITER as unknown as ReturnType<typeof fakeRateLimiter>
      expect(limiter.calls).toEqual(Array(6).fill('203.0.113.9'))
      expect(printed().json.at(-1)).toMatchObject({ event: 'contact', outcome: 'rate_limited', level: 'warn' })
    })

    it('counts each client separately', async () => {
      const env = withKey()
      for (let i = 0; i < 5; i++) await submitEnquiry(submission(), { env, request: request('203.0.113.10') })
      expect(await submitEnquiry(submission(), { env, request: request('203.0.113.11') })).toEqual({ kind: 'sent' })
    })

    it('answers 429 with Retry-After and the failure message', async () => {
      const response = outcomeAnswer({ kind: 'rate_limited', retryAfter: 60 }, request())
      expect(response.status).toBe(429)
      expect(response.headers.get('Retry-After')).toBe('60')
      expect(response.headers.get('Cache-Control')).toBe('no-store')
      expect(await response.json()).toEqual({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE })
    })

    it('keys on CF-Connecting-IP', () => {
      expect(clientAddress(request('2001:db8::1'))).toBe('2001:db8::1')
      expect(clientAddress(new Request('http://localhost/'))).toBe('unknown')
    })
  })

  describe('when the form service fails', () => {
    it('tells the visitor, keeps the enquiry in the outbox and logs one line with the cause', async () => {
      const env = withKey()
      const data = submission()
      service.setScenario(data.email, { kind: 'status', status: 500 })
      const outcome = await submitEnquiry(data, { env, request: request() })
      expect(outcome).toEqual({ kind: 'failed', cause: 'upstream_status' })
      expect(service.received).toHaveLength(1)

      const kv = env.OUTBOX as unknown as ReturnType<typeof fakeKv>
      expect(kv.entries.size).toBe(1)
      const [key, entry] = [...kv.entries][0] ?? ['', { value: '{}' }]
      const record = JSON.parse(entry.value) as OutboxRecord
      expect(key).toMatch(/^enquiry:\d{4}-\d\d-\d\dT/)
      expect(record).toMatchObject({ name: data.name, email: data.email, message: data.message })
      expect(record.keptBecause).toBe('form-service failed: upstream_status')
      expect(entry.options).toMatchObject({ expirationTtl: OUTBOX_TTL_SECONDS })

      const { json, lines } = printed()
      const failures = json.filter((line) => line.event === 'contact')
      expect(failures).toHaveLength(1)
      expect(failures[0]).toMatchObject({
        level: 'error',
        outcome: 'failed',
        delivery: 'form-service',
        cause: 'upstream_status',
        upstreamStatus: 500,
        keptInOutbox: true,
      })
      expectNoPersonalData(
        lines.filter((line) => line.startsWith('{')),
        data,
      )

      const response = outcomeAnswer(outcome, request())
      expect(response.status).toBe(502)
      expect(await response.json()).toEqual({ ok: false, error: 'delivery_failed', message: FAILURE_MESSAGE })
    })

    it('gives up within the time-out on a service that hangs', async () => {
      const data = submission()
      service.setScenario(data.email, { kind: 'hang' })
      const started = Date.now()
      const outcome = await submitEnquiry(data, { env: withKey(), request: request(), timeoutMs: 300 })
      expect(outcome).toEqual({ kind: 'failed', cause: 'upstream_timeout' })
      expect(Date.now() - started).toBeLessThan(2_000)
    })
  })

  describe('without a key', () => {
    it('keeps the enquiry in the outbox and logs a warning naming the missing secret', async () => {
      const env = withKey({ CONTACT_FORM_ACCESS_KEY: '' })
      const data = submission()
      const outcome = await submitEnquiry(data, { env, request: request() })
      expect(outcome).toEqual({ kind: 'sent' })
      expect(service.received).toHaveLength(0)
      const kv = env.OUTBOX as unknown as ReturnType<typeof fakeKv>
      const record = JSON.parse([...kv.entries.values()][0]?.value ?? '{}') as OutboxRecord
      expect(record).toMatchObject({ email: data.email, subject: 'automation', subjectLabel: 'Intelligent Automation' })
      expect(record.keptBecause).toContain('CONTACT_FORM_ACCESS_KEY')

      const { json } = printed()
      const warning = json.find((line) => line.event === 'contact_config')
      expect(warning).toMatchObject({ level: 'warn', missing: 'CONTACT_FORM_ACCESS_KEY', fallback: 'outbox' })
      expect(String(warning?.message)).toContain('wrangler secret put CONTACT_FORM_ACCESS_KEY')
      expect(json.find((line) => line.event === 'contact')).toMatchObject({ outcome: 'sent', delivery: 'outbox' })
    })

    it('prints the enquiry as a readable block on a local server only', async () => {
      const data = submission()
      await submitEnquiry(data, { env: withKey({ CONTACT_FORM_ACCESS_KEY: undefined }), request: request() })
      const block = printed().lines.find((line) => line.includes('New enquiry kept in the local outbox'))
      expect(block).toContain(`Email:    ${data.email}`)
      expect(block).toContain(`Hello, ${SECRET_WORDS}.`)

      consoleSpies.forEach((spy) => {
        spy.mockClear()
      })
      const deployed = request('198.51.100.77', 'https://aksharalabs.in/_serverFn/x')
      await submitEnquiry(data, { env: withKey({ CONTACT_FORM_ACCESS_KEY: undefined }), request: deployed })
      const { lines } = printed()
      expect(lines.some((line) => line.includes('New enquiry kept'))).toBe(false)
      expectNoPersonalData(lines, data)
    })

    it('fails visibly, and says why, when there is no outbox either', async () => {
      const env = withKey({ CONTACT_FORM_ACCESS_KEY: undefined, OUTBOX: undefined })
      const outcome = await submitEnquiry(submission(), { env, request: request() })
      expect(outcome).toEqual({ kind: 'not_configured' })
      expect(outcomeAnswer(outcome, request()).status).toBe(503)
      expect(printed().json.find((line) => line.event === 'contact_config')).toMatchObject({
        level: 'error',
        fallback: 'none',
      })
    })

    it('fails when the outbox cannot be written', async () => {
      const env = withKey({ CONTACT_FORM_ACCESS_KEY: undefined, OUTBOX: fakeKv({ failing: true }) })
      expect(await submitEnquiry(submission(), { env, request: request() })).toEqual({
        kind: 'failed',
        cause: 'outbox_write_failed',
      })
    })
  })

  describe('the email delivery', () => {
    it('sends the enquiry by e-mail when CONTACT_DELIVERY is "email"', async () => {
      const binding = fakeEmailBinding()
      const env = withKey({
        CONTACT_DELIVERY: 'email',
        CONTACT_EMAIL: binding,
        CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
      })
      const data = submission()
      expect(await submitEnquiry(data, { env, request: request() })).toEqual({ kind: 'sent' })
      expect(binding.sent).toHaveLength(1)
      expect(binding.sent[0]?.raw).toContain(`Reply-To: "Ravi Kumar" <${data.email}>`)
      expect(service.received).toHaveLength(0)
    })

    it('keeps the enquiry in the outbox when sending fails', async () => {
      const env = withKey({
        CONTACT_DELIVERY: 'email',
        CONTACT_EMAIL: fakeEmailBinding({ failing: true }),
        CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
      })
      const outcome = await submitEnquiry(submission(), { env, request: request() })
      expect(outcome).toEqual({ kind: 'failed', cause: 'email_send_failed' })
      expect((env.OUTBOX as unknown as ReturnType<typeof fakeKv>).entries.size).toBe(1)
    })

    it('falls back to the outbox without the binding', async () => {
      const env = withKey({ CONTACT_DELIVERY: 'email', CONTACT_EMAIL_FROM: 'website@aksharalabs.in' })
      expect(await submitEnquiry(submission(), { env, request: request() })).toEqual({ kind: 'sent' })
      expect((env.OUTBOX as unknown as ReturnType<typeof fakeKv>).entries.size).toBe(1)
      expect(printed().json.find((line) => line.event === 'contact_config')).toMatchObject({ missing: 'CONTACT_EMAIL' })
    })
  })

  it('uses only the outbox when CONTACT_DELIVERY is "outbox"', async () => {
    const env = withKey({ CONTACT_DELIVERY: 'outbox' })
    expect(await submitEnquiry(submission(), { env, request: request() })).toEqual({ kind: 'sent' })
    expect(service.received).toHaveLength(0)
    expect((env.OUTBOX as unknown as ReturnType<typeof fakeKv>).entries.size).toBe(1)
    expect(printed().json.some((line) => line.event === 'contact_config')).toBe(false)
  })

  it('answers a refused input with 400, naming the fields, and logs only their names', async () => {
    const result = v.safeParse(contactSubmissionSchema, { name: '', email: 'not-an-address', message: SECRET_WORDS })
    expect(result.success).toBe(false)
    if (result.success) return
    const response = invalidInputAnswer(result.issues, request())
    expect(response.status).toBe(400)
    const body = (await response.json()) as { ok: boolean; error: string; fields: Record<string, string> }
    expect(body.ok).toBe(false)
    expect(body.error).toBe('invalid_input')
    expect(Object.keys(body.fields)).toEqual(['name', 'email', 'subject'])
    const { json, lines } = printed()
    expect(json[0]).toMatchObject({ outcome: 'invalid', fields: 'name,email,subject' })
    for (const line of lines) expect(line).not.toContain('not-an-address')
  })

  it('knows a local server from a deployed one', () => {
    expect(isLocalRequest(new Request('http://localhost:8787/contact'))).toBe(true)
    expect(isLocalRequest(new Request('http://127.0.0.1:8787/contact'))).toBe(true)
    expect(isLocalRequest(new Request('https://aksharalabs.in/contact'))).toBe(false)
  })
})

describe('choosing the delivery', () => {
  const bindings = { OUTBOX: fakeKv(), CONTACT_EMAIL: fakeEmailBinding() }

  it('defaults to the form service', () => {
    expect(planDelivery(contactEnv({ ...bindings, CONTACT_FORM_ACCESS_KEY: KEY }))).toMatchObject({
      requested: 'form-service',
      configured: true,
      delivery: DELIVERIES['form-service'],
    })
  })

  it('falls back to the outbox for an unknown delivery name', () => {
    expect(planDelivery(contactEnv({ ...bindings, CONTACT_DELIVERY: 'pigeon' }))).toMatchObject({
      requested: 'pigeon',
      configured: false,
      missing: ['CONTACT_DELIVERY'],
      delivery: DELIVERIES.outbox,
    })
  })

  it('reports health without any secret value', () => {
    const env = contactEnv({ ...bindings, CONTACT_FORM_ACCESS_KEY: KEY, CONTACT_RATE_LIMITER: fakeRateLimiter() })
    const report = healthReport(env)
    expect(report).toEqual({
      ok: true,
      delivery: 'form-service',
      configured: true,
      requested: 'form-service',
      missing: [],
      rateLimiter: true,
    })
    expect(JSON.stringify(report)).not.toContain(KEY)
    expect(healthReport(contactEnv({ OUTBOX: fakeKv() }))).toMatchObject({
      ok: true,
      delivery: 'outbox',
      configured: false,
      missing: ['CONTACT_FORM_ACCESS_KEY'],
    })
    expect(healthReport(contactEnv({}))).toMatchObject({ ok: false, delivery: 'none', configured: false })
  })
})

describe('an enquiry as the operator reads it', () => {
  it('is one readable block with every field and the message lines indented', () => {
    const block = formatEnquiry({
      id: '2026-01-02T03:04:05.678Z-abcdef012345',
      receivedAt: '2026-01-02T03:04:05.678Z',
      name: 'Ravi Kumar',
      email: 'ravi@example.com',
      company: '',
      subject: 'general',
      subjectLabel: 'General Inquiry',
      message: 'First line\nSecond line',
      keptBecause: 'outbox selected',
    })
    expect(block.split('\n')).toEqual([
      '─'.repeat(64),
      'Enquiry enquiry:2026-01-02T03:04:05.678Z-abcdef012345',
      'Received: 2026-01-02T03:04:05.678Z',
      'Subject:  General Inquiry (general)',
      'Name:     Ravi Kumar',
      'Email:    ravi@example.com',
      'Company:  —',
      'Kept:     outbox selected',
      'Message:',
      '  First line',
      '  Second line',
      '─'.repeat(64),
    ])
  })
})
