// @vitest-environment node
/**
 * The enquiry's path on the server, as an operator and a visitor see it: rate limit → honeypot →
 * stored in D1 → delivery attempted (in `waitUntil`) → answer; then the Cron Trigger's runs.
 * D1 is a real SQLite database with the project's migrations (`tests/support/d1-sqlite.ts`), the
 * form service is `fetch`, stubbed; assertions read the rows with plain SQL.
 */
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { DEFAULT_RETRY_DELAYS, deliverDueEnquiries, retryDelays } from '~/contact/attempts.server'
import {
  type EnquiryOutcome,
  invalidInputReply,
  isLocalRequest,
  outcomeReply,
  submitEnquiry,
} from '~/contact/contact.server'
import { DELIVERIES, planDelivery } from '~/contact/deliveries/index.server'
import { newIdempotencyKey } from '~/contact/fields'
import { healthReport } from '~/contact/health.server'
import { clientAddress, networkKey, RATE_LIMIT_PERIOD_SECONDS, rateLimitKey } from '~/contact/limits.server'
import { type EnquiryInput, enquiryInputSchema } from '~/contact/schema'
import { FAILURE_MESSAGE } from '~/contact/status'
import { EMPTY_VALUES, formatEnquiry } from '~/ledger'
import type { Row as LedgerRow } from '~/ledger/columns'
import { claimEnquiry, LEASE_MS } from '~/ledger/index.server'
import { STORE_TIMEOUT_MS } from '~/server/d1.server'
import { requestIdFor } from '~/server/log.server'
import { replyResponse } from '~/server/reply'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { captureConsole } from '../support/console'
import { type SqliteD1, sqliteD1 } from '../support/d1-sqlite'
import { enquiryInput as anEnquiryInput } from '../support/enquiry-input'
import {
  contactEnv,
  FakeEmailMessage,
  fakeEmailBinding,
  fakeRateLimiter,
  type SentEmail,
  waitUntilCollector,
} from '../support/fake-env'

/** What the no-JavaScript endpoint answers a client that is not a browser: the reply as a Response. */
const outcomeAnswer = (outcome: EnquiryOutcome, request: Request) =>
  replyResponse(outcomeReply(outcome), requestIdFor(request))
const invalidInputAnswer = (issues: readonly v.BaseIssue<unknown>[], request: Request) =>
  replyResponse(invalidInputReply(issues, requestIdFor(request)), requestIdFor(request))

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

const KEY = 'unit-key-d41d8cd98f00'
const ENDPOINT = 'https://forms.test/submit'
const NAME = 'Zeynep Quillfeather'
const SECRET_WORDS = 'a confidential project about pumps'
const COMPANY = 'Godavari Foods'
const FROM = 'website@aksharalabs.in'

/** A row of `enquiries` as SQL returns it: the ledger's, with the key its reads leave out. */
type Row = LedgerRow & { idempotency_key: string }

interface Attempt {
  enquiry_id: string
  attempt: number
  attempted_at: string
  delivery: string
  outcome: string
  cause: string | null
}

/** One post the stand-in form service received, with the enquiry rows as they were at that moment. */
interface FormPost {
  url: string
  body: Record<string, unknown>
  rowsThen: Row[]
}

type Answer = Response | 'hang'

let d1: SqliteD1
let posts: FormPost[]
let answer: (post: FormPost) => Answer | Promise<Answer>
let fetchMock: ReturnType<typeof vi.fn>
let consoleSpies: MockInstance[] = []
let counter = 0

beforeEach(() => {
  d1 = sqliteD1()
  posts = []
  answer = () => Response.json({ success: true, message: 'Email sent successfully!' })
  fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const post: FormPost = {
      url: String(input instanceof Request ? input.url : input),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
      rowsThen: d1.query<Row>('SELECT * FROM enquiries'),
    }
    posts.push(post)
    const reply = await answer(post)
    if (reply !== 'hang') return reply
    // A service that never answers: only the caller's time-out ends the wait.
    return new Promise<Response>((_, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  consoleSpies = captureConsole().spies
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  d1.close()
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
  return { lines, json, calls: lines.length }
}

function clearPrinted() {
  for (const spy of consoleSpies) spy.mockClear()
}

/** The unit's visitor: the same name, company and words in every enquiry, so a leak of them is found. */
function enquiryInput(overrides: Record<string, unknown> = {}): EnquiryInput {
  counter += 1
  return anEnquiryInput(`client-${counter}`, {
    name: NAME,
    company: COMPANY,
    subject: 'automation',
    message: `Hello, ${SECRET_WORDS}.`,
    ...overrides,
  })
}

/** A request to the deployed site (a local one also prints the enquiry for the developer). */
function request(ip = `198.51.100.${counter % 250}`, url = 'https://aksharalabs.in/_serverFn/x') {
  return new Request(url, { method: 'POST', headers: { 'CF-Connecting-IP': ip } })
}

function env(extra: Record<string, unknown> = {}): WorkerEnv {
  return contactEnv({
    CONTACT_DELIVERY: 'form-service',
    CONTACT_FORM_ENDPOINT: ENDPOINT,
    CONTACT_FORM_ACCESS_KEY: KEY,
    CONTACT_RATE_LIMITER: fakeRateLimiter(),
    CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(),
    ENQUIRIES: d1.db,
    ...extra,
  })
}

/** Submits as the Worker does: the answer first, then the work left in `waitUntil`, awaited here. */
async function submit(
  data: EnquiryInput,
  e: WorkerEnv,
  options: { request?: Request; timeoutMs?: number } = {},
): Promise<EnquiryOutcome> {
  const work = waitUntilCollector()
  const outcome = await submitEnquiry(data, {
    requestId: 'test-request',
    env: e,
    request: options.request ?? request(),
    waitUntil: work.waitUntil,
    timeoutMs: options.timeoutMs,
  })
  await work.settle()
  return outcome
}

const rowFor = (email: string) => d1.row<Row>('SELECT * FROM enquiries WHERE email = ?1', email)
const allRows = () => d1.query<Row>('SELECT * FROM enquiries ORDER BY received_at, id')
const attemptsFor = (id: string) =>
  d1.query<Attempt>('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?1 ORDER BY attempt', id)
/** A clock `ms` from now. */
const later = (ms: number) => () => new Date(Date.now() + ms)

function expectNoPersonalData(lines: string[], data: EnquiryInput) {
  for (const line of lines) {
    expect(line).not.toContain(NAME)
    expect(line).not.toContain(data.email)
    expect(line).not.toContain(SECRET_WORDS)
    expect(line).not.toContain(COMPANY)
    expect(line).not.toContain(KEY)
  }
}

/** The Subject header of a raw e-mail, unfolded and decoded (RFC 2047, B encoding). */
function subjectOf(raw: string): string {
  const match = raw.match(/^Subject: (.*(?:\r\n .*)*)/m)
  return (match?.[1] ?? '')
    .replace(/\?=\r\n =\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))
}

/** The text of a raw e-mail's base64 body. */
function emailBody(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4)
  return Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8')
}

describe('an enquiry is stored before anything else', () => {
  it('is in D1 before the form service hears of it, then delivered once, and the row says so', async () => {
    const data = enquiryInput()
    const outcome = await submit(data, env())
    expect(outcome).toEqual({ kind: 'stored', enquiryId: expect.any(String), repeat: false })

    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [post] = posts
    expect(post?.url).toBe(ENDPOINT)
    expect(post?.body).toEqual({
      name: NAME,
      email: data.email,
      company: COMPANY,
      subject: 'automation',
      message: `Hello, ${SECRET_WORDS}.`,
      access_key: KEY,
    })
    // When the form service was called, the enquiry was already stored, pending, with no attempt.
    expect(post?.rowsThen).toEqual([
      expect.objectContaining({ email: data.email, status: 'pending', attempts: 0, delivered_at: null }),
    ])

    const row = rowFor(data.email)
    expect(row).toMatchObject({
      id: outcome.kind === 'stored' ? outcome.enquiryId : '?',
      idempotency_key: data.enquiry_key,
      name: NAME,
      company: COMPANY,
      subject: 'automation',
      message: `Hello, ${SECRET_WORDS}.`,
      status: 'delivered',
      attempts: 1,
      delivered_by: 'form-service',
      next_attempt_at: null,
      last_cause: null,
    })
    expect(Date.parse(row?.delivered_at ?? '')).not.toBeNaN()
    expect(attemptsFor(row?.id ?? '')).toEqual([
      {
        enquiry_id: row?.id,
        attempt: 1,
        attempted_at: expect.any(String),
        delivery: 'form-service',
        outcome: 'delivered',
        cause: null,
      },
    ])

    const response = outcomeAnswer(outcome, request())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })

    const { json, lines } = printed()
    expect(json.map((line) => line.outcome)).toEqual(['stored', 'delivered'])
    expect(json[0]).toMatchObject({ event: 'contact', level: 'info', delivery: 'form-service', enquiryId: row?.id })
    expect(json[1]).toMatchObject({ event: 'contact', level: 'info', attempt: 1, upstreamStatus: 200 })
    expectNoPersonalData(lines, data)
  })

  it('answers the visitor without waiting for the delivery, which finishes in waitUntil', async () => {
    let release: (response: Response) => void = () => {}
    answer = () => new Promise<Response>((resolve) => (release = resolve))
    const data = enquiryInput()
    const work = waitUntilCollector()
    const outcome = await submitEnquiry(data, {
      requestId: 'test-request',
      env: env(),
      request: request(),
      waitUntil: work.waitUntil,
    })
    expect(outcome).toMatchObject({ kind: 'stored', repeat: false })
    expect(work.pending).toHaveLength(1)
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0 })

    release(Response.json({ success: true }))
    await work.settle()
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('never forwards an access_key sent by a client', async () => {
    const data = v.parse(enquiryInputSchema, { ...enquiryInput(), access_key: 'from-the-browser' })
    await submit(data, env())
    expect(posts[0]?.body.access_key).toBe(KEY)
    expect(JSON.stringify(posts[0]?.body)).not.toContain('from-the-browser')
  })

  it('is delivered by e-mail when CONTACT_DELIVERY is "email"', async () => {
    const binding = fakeEmailBinding()
    const data = enquiryInput()
    const outcome = await submit(
      data,
      env({ CONTACT_DELIVERY: 'email', CONTACT_EMAIL: binding, CONTACT_EMAIL_FROM: FROM }),
    )
    expect(outcome).toMatchObject({ kind: 'stored' })
    expect(fetchMock).not.toHaveBeenCalled()
    expect(binding.sent).toHaveLength(1)
    expect(binding.sent[0]).toBeInstanceOf(FakeEmailMessage)
    expect(binding.sent[0]?.raw).toContain(`Reply-To: "${NAME}" <${data.email}>`)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1, delivered_by: 'email' })
  })
})

describe('when the enquiry cannot be stored', () => {
  it('answers not_stored on a D1 error, calls nobody, and logs one line without personal data', async () => {
    d1.broken = true
    const data = enquiryInput()
    const outcome = await submit(data, env())
    expect(outcome).toEqual({ kind: 'not_stored', cause: 'store_error' })
    expect(fetchMock).not.toHaveBeenCalled()

    const { lines, json, calls } = printed()
    expect(calls).toBe(1)
    expect(consoleSpies[3]?.mock.calls).toHaveLength(1) // console.error
    expect(json[0]).toMatchObject({ event: 'contact', level: 'error', outcome: 'not_stored', cause: 'store_error' })
    expectNoPersonalData(lines, data)

    d1.broken = false
    expect(allRows()).toEqual([])
    const response = outcomeAnswer(outcome, request())
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ ok: false, error: 'not_stored', message: FAILURE_MESSAGE })
  })

  it(`answers not_stored (store_timeout) when D1 hangs, after the fixed ${STORE_TIMEOUT_MS / 1000} s time-out`, async () => {
    // STORE_TIMEOUT_MS is fixed (5 s), so the clock is faked: only setTimeout/clearTimeout.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    d1.hang = true
    const data = enquiryInput()
    let settled: EnquiryOutcome | undefined
    const pending = submitEnquiry(data, { requestId: 'test-request', env: env(), request: request() }).then(
      (outcome) => {
        settled = outcome
        return outcome
      },
    )
    await vi.advanceTimersByTimeAsync(STORE_TIMEOUT_MS - 1)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(await pending).toEqual({ kind: 'not_stored', cause: 'store_timeout' })
    expect(fetchMock).not.toHaveBeenCalled()
    const { json, lines, calls } = printed()
    expect(calls).toBe(1)
    expect(json[0]).toMatchObject({ level: 'error', outcome: 'not_stored', cause: 'store_timeout' })
    expectNoPersonalData(lines, data)
  })

  it('answers not_stored when the ENQUIRIES binding is missing', async () => {
    const outcome = await submit(enquiryInput(), env({ ENQUIRIES: undefined }))
    expect(outcome).toEqual({ kind: 'not_stored', cause: 'missing_store_binding' })
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('when the form service fails', () => {
  it('keeps the row pending with the cause, retries a minute later in a scheduled run, and sends it once', async () => {
    answer = () => Response.json({ success: false, message: 'Server error' }, { status: 500 })
    const data = enquiryInput()
    const before = Date.now()
    const outcome = await submit(data, env())
    const after = Date.now()
    // The visitor is told it is sent: it is stored, and its delivery is under way.
    expect(outcome).toMatchObject({ kind: 'stored', repeat: false })

    const row = rowFor(data.email) as Row
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_cause: 'upstream_status', delivered_at: null })
    const next = Date.parse(row.next_attempt_at ?? '')
    expect(DEFAULT_RETRY_DELAYS[0]).toBe(60)
    expect(next).toBeGreaterThanOrEqual(before + 60_000)
    expect(next).toBeLessThanOrEqual(after + 60_000)
    expect(attemptsFor(row.id)).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'failed', cause: 'upstream_status', delivery: 'form-service' }),
    ])
    const retry = printed().json.find((line) => line.outcome === 'retry_scheduled')
    expect(retry).toMatchObject({ level: 'warn', cause: 'upstream_status', upstreamStatus: 500, attempt: 1 })

    // Not due yet: a run half a minute later leaves it alone.
    const e = env()
    expect(await deliverDueEnquiries(e, { now: later(30_000) })).toMatchObject({ due: 0 })
    expect(fetchMock).toHaveBeenCalledTimes(1)

    // The service is back, and the next attempt is due.
    answer = () => Response.json({ success: true })
    const summary = await deliverDueEnquiries(e, { now: later(61_000) })
    expect(summary).toEqual({ due: 1, delivered: 1, retryScheduled: 0, gaveUp: 0, notAttempted: 0, leaseLost: 0 })
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(rowFor(data.email)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      delivered_by: 'form-service',
      next_attempt_at: null,
      last_cause: 'upstream_status',
    })
    expect(attemptsFor(row.id).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
    ])

    // A second run sends nothing.
    expect(await deliverDueEnquiries(e, { now: later(120_000) })).toMatchObject({ due: 0, delivered: 0 })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('records a time-out as upstream_timeout', async () => {
    answer = () => 'hang'
    const data = enquiryInput()
    expect(await submit(data, env(), { timeoutMs: 50 })).toMatchObject({ kind: 'stored' })
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 1, last_cause: 'upstream_timeout' })
  })

  it('records a refusal (success: false) as upstream_refused', async () => {
    answer = () => Response.json({ success: false, message: 'Invalid access key' })
    const data = enquiryInput()
    await submit(data, env())
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', last_cause: 'upstream_refused' })
  })
})

describe('after the last attempt', () => {
  const failing = () => Response.json({ success: false }, { status: 503 })

  async function exhaust(extra: Record<string, unknown>) {
    answer = failing
    const e = env({ CONTACT_RETRY_DELAYS: '0,0', ...extra })
    const data = enquiryInput()
    await submit(data, e)
    const first = await deliverDueEnquiries(e, { now: later(1_000), EmailMessageClass: FakeEmailMessage })
    const second = await deliverDueEnquiries(e, { now: later(2_000), EmailMessageClass: FakeEmailMessage })
    return { data, e, first, second }
  }

  it('marks the row failed, logs one gave_up line and e-mails the company mailbox once', async () => {
    const send = vi.fn(async (_message: SentEmail) => ({ messageId: 'm-1' }))
    const { data, e, first, second } = await exhaust({ CONTACT_EMAIL: { send }, CONTACT_EMAIL_FROM: FROM })
    expect(first).toMatchObject({ due: 1, retryScheduled: 1, gaveUp: 0 })
    expect(second).toMatchObject({ due: 1, retryScheduled: 0, gaveUp: 1 })
    expect(fetchMock).toHaveBeenCalledTimes(3)

    const row = rowFor(data.email) as Row
    expect(row).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null, last_cause: 'upstream_status' })
    expect(attemptsFor(row.id).map((a) => a.outcome)).toEqual(['failed', 'failed', 'failed'])

    const gaveUp = printed().json.filter((line) => line.outcome === 'gave_up')
    expect(gaveUp).toHaveLength(1)
    expect(gaveUp[0]).toMatchObject({
      event: 'contact',
      level: 'error',
      enquiryId: row.id,
      attempt: 3,
      cause: 'upstream_status',
      notified: true,
    })

    expect(send).toHaveBeenCalledTimes(1)
    const notice = send.mock.calls[0]?.[0] as SentEmail
    expect(notice).toBeInstanceOf(FakeEmailMessage)
    expect(notice.to).toBe(site.email)
    expect(notice.from).toBe(FROM)
    expect(subjectOf(notice.raw)).toMatch(/^Enquiry not delivered: Intelligent Automation — /)
    const body = emailBody(notice.raw)
    expect(body).toContain(row.id)
    expect(body).toContain('upstream_status')
    // The notice holds the enquiry itself, so whoever reads it can answer.
    expect(body).toContain(data.email)

    // Failed is final: later runs neither send the enquiry nor the notice again.
    expect(await deliverDueEnquiries(e, { now: later(3_600_000), EmailMessageClass: FakeEmailMessage })).toMatchObject({
      due: 0,
    })
    expect(fetchMock).toHaveBeenCalledTimes(3)
    expect(send).toHaveBeenCalledTimes(1)
  })

  it('logs notified: false without the send_email binding', async () => {
    const { data } = await exhaust({ CONTACT_EMAIL_FROM: FROM })
    expect(rowFor(data.email)?.status).toBe('failed')
    const gaveUp = printed().json.filter((line) => line.outcome === 'gave_up')
    expect(gaveUp).toHaveLength(1)
    expect(gaveUp[0]).toMatchObject({ notified: false })
  })

  it('logs notified: false when the notice cannot be sent', async () => {
    const { data } = await exhaust({ CONTACT_EMAIL: fakeEmailBinding({ failing: true }), CONTACT_EMAIL_FROM: FROM })
    expect(rowFor(data.email)?.status).toBe('failed')
    expect(printed().json.find((line) => line.outcome === 'gave_up')).toMatchObject({ notified: false })
  })
})

describe('a delivery asked for without what it needs', () => {
  it('keeps the enquiry pending, names the missing secret on every run, and delivers once it is set', async () => {
    const e = env({ CONTACT_FORM_ACCESS_KEY: undefined })
    const data = enquiryInput()
    expect(await submit(data, e)).toMatchObject({ kind: 'stored', repeat: false })
    expect(fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0, last_cause: null })
    expect(printed().json.find((line) => line.event === 'contact_config')).toMatchObject({
      level: 'warn',
      missing: 'CONTACT_FORM_ACCESS_KEY',
    })

    for (let run = 1; run <= 2; run++) {
      clearPrinted()
      expect(await deliverDueEnquiries(e, { now: later(run * 60_000) })).toMatchObject({ due: 0, delivered: 0 })
      const config = printed().json.filter((line) => line.event === 'contact_config')
      expect(config).toHaveLength(1)
      expect(config[0]).toMatchObject({
        level: 'error',
        requested: 'form-service',
        missing: 'CONTACT_FORM_ACCESS_KEY',
        pending: 1,
      })
      expect(String(config[0]?.message)).toContain('CONTACT_FORM_ACCESS_KEY')
    }
    expect(fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0 })

    clearPrinted()
    e.CONTACT_FORM_ACCESS_KEY = KEY
    expect(await deliverDueEnquiries(e, { now: later(180_000) })).toMatchObject({ due: 1, delivered: 1 })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(posts[0]?.body.access_key).toBe(KEY)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1 })
    expect(printed().json.some((line) => line.event === 'contact_config')).toBe(false)
    // The secret's name is logged; its value never is.
    for (const line of printed().lines) expect(line).not.toContain(KEY)
  })

  it('stores only with CONTACT_DELIVERY=none: never attempted, and runs neither send nor complain', async () => {
    const e = env({ CONTACT_DELIVERY: 'none' })
    const data = enquiryInput()
    expect(await submit(data, e)).toMatchObject({ kind: 'stored', repeat: false })
    for (let run = 1; run <= 2; run++) {
      expect(await deliverDueEnquiries(e, { now: later(run * 3_600_000) })).toEqual({
        due: 0,
        delivered: 0,
        retryScheduled: 0,
        gaveUp: 0,
        notAttempted: 0,
        leaseLost: 0,
      })
    }
    expect(fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0, delivered_at: null })
    expect(attemptsFor(rowFor(data.email)?.id ?? '')).toEqual([])
    expect(printed().json.some((line) => line.event === 'contact_config')).toBe(false)
  })
})

describe('one enquiry per form fill (the idempotency key)', () => {
  it('stores one row and delivers once for two posts with the same key; the repeat gets the same answer', async () => {
    const e = env()
    const data = enquiryInput()
    const first = await submit(data, e)
    const second = await submit({ ...data }, e)
    expect(first).toMatchObject({ kind: 'stored', repeat: false })
    expect(second).toEqual({
      kind: 'stored',
      enquiryId: first.kind === 'stored' ? first.enquiryId : '?',
      repeat: true,
    })
    expect(allRows()).toHaveLength(1)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(printed().json.filter((line) => line.outcome === 'repeat')).toHaveLength(1)
    expect(outcomeAnswer(second, request()).status).toBe(200)
  })

  it('stores one row for two posts with the same key that arrive at once (a double click)', async () => {
    const e = env()
    const data = enquiryInput()
    const outcomes = await Promise.all([submit(data, e), submit({ ...data }, e)])
    expect(outcomes.map((o) => o.kind === 'stored' && o.repeat).sort()).toEqual([false, true])
    expect(allRows()).toHaveLength(1)
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('does not deliver again on a resend after a failed first attempt', async () => {
    answer = () => new Response('down', { status: 502 })
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    expect(await submit(data, e)).toMatchObject({ kind: 'stored', repeat: true })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(allRows()).toEqual([expect.objectContaining({ status: 'pending', attempts: 1 })])
  })

  it('stores two rows for two different keys', async () => {
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    await submit({ ...data, enquiry_key: newIdempotencyKey() }, e)
    expect(allRows()).toHaveLength(2)
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('stores a post without a key under a key of its own, once per post', async () => {
    const e = env()
    const data = enquiryInput({ enquiry_key: undefined })
    expect(data.enquiry_key).toBeUndefined()
    const first = await submit(data, e)
    const second = await submit(data, e)
    expect(first).toMatchObject({ kind: 'stored', repeat: false })
    expect(second).toMatchObject({ kind: 'stored', repeat: false })
    const rows = allRows()
    expect(rows).toHaveLength(2)
    for (const row of rows) expect(row.idempotency_key).toBe(`server-${row.id}`)
  })

  it('treats a malformed key as no key', async () => {
    const data = enquiryInput({ enquiry_key: 'short' })
    expect(data.enquiry_key).toBeUndefined()
    expect(await submit(data, env())).toMatchObject({ kind: 'stored', repeat: false })
  })
})

describe('a delivered enquiry is never sent again', () => {
  it('is not claimed by a run even when someone makes it due again', async () => {
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    const row = rowFor(data.email) as Row
    expect(row.status).toBe('delivered')
    d1.sqlite.prepare("UPDATE enquiries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").run(row.id)

    expect(await deliverDueEnquiries(e, { now: later(60_000) })).toMatchObject({ due: 0, delivered: 0 })
    const now = new Date().toISOString()
    expect(await claimEnquiry(d1.db, row.id, now, new Date(Date.now() + LEASE_MS).toISOString())).toBeNull()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('is sent once when two scheduled runs overlap', async () => {
    answer = () => new Response('down', { status: 500 })
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    answer = () => Response.json({ success: true })
    const runs = await Promise.all([
      deliverDueEnquiries(e, { now: later(61_000) }),
      deliverDueEnquiries(e, { now: later(61_000) }),
    ])
    expect(runs.reduce((n, run) => n + run.delivered, 0)).toBe(1)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 2 })
  })

  it('is not sent by a run while the request’s own attempt holds it', async () => {
    let release: (response: Response) => void = () => {}
    answer = () => new Promise<Response>((resolve) => (release = resolve))
    const e = env()
    const data = enquiryInput()
    const work = waitUntilCollector()
    await submitEnquiry(data, { requestId: 'test-request', env: e, request: request(), waitUntil: work.waitUntil })
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    // A cron run within the lease finds nothing due.
    expect(await deliverDueEnquiries(e, { now: later(LEASE_MS - 1_000) })).toMatchObject({ due: 0 })
    release(Response.json({ success: true }))
    await work.settle()
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})

describe('the rate limit and the honeypot come before the ledger', () => {
  // The limit itself (5 a minute) is the binding's, in wrangler.toml: proven against workerd's real
  // limiter in tests/worker/rate-limits.test.ts. Here: what the code does with the limiter's verdict.
  it('stores and delivers what the limiter lets through, and nothing once it says no, asking it by client address', async () => {
    const limiter = fakeRateLimiter(2)
    const e = env({ CONTACT_RATE_LIMITER: limiter })
    const outcomes: EnquiryOutcome[] = []
    for (let i = 0; i < 3; i++) outcomes.push(await submit(enquiryInput(), e, { request: request('203.0.113.9') }))
    expect(outcomes.slice(0, 2).every((o) => o.kind === 'stored')).toBe(true)
    expect(outcomes[2]).toEqual({ kind: 'rate_limited', retryAfter: RATE_LIMIT_PERIOD_SECONDS })
    expect(allRows()).toHaveLength(2)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(limiter.calls).toEqual(Array(3).fill('203.0.113.9'))
    expect(printed().json.at(-1)).toMatchObject({ event: 'contact', outcome: 'rate_limited', level: 'warn' })
  })

  it('stores nothing for a rate-limited client, even before any row exists', async () => {
    const e = env({ CONTACT_RATE_LIMITER: fakeRateLimiter(0) })
    expect(await submit(enquiryInput(), e)).toEqual({ kind: 'rate_limited', retryAfter: 60 })
    expect(allRows()).toEqual([])
    expect(d1.executed).toEqual([])
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('counts the addresses of one IPv6 /64 together', async () => {
    const e = env({ CONTACT_RATE_LIMITER: fakeRateLimiter(5) })
    for (let i = 1; i <= 5; i++) await submit(enquiryInput(), e, { request: request(`2001:db8:1:2::${i}`) })
    expect(await submit(enquiryInput(), e, { request: request('2001:db8:1:2:ffff::9') })).toMatchObject({
      kind: 'rate_limited',
    })
    expect(await submit(enquiryInput(), e, { request: request('2001:db8:1:3::1') })).toMatchObject({ kind: 'stored' })
  })

  it('still stores, and says so in the log, when no rate limiter is bound', async () => {
    const data = enquiryInput()
    expect(await submit(data, env({ CONTACT_RATE_LIMITER: undefined }))).toMatchObject({ kind: 'stored' })
    expect(rowFor(data.email)?.status).toBe('delivered')
    expect(printed().json.find((line) => line.event === 'contact_config')).toMatchObject({
      level: 'error',
      missing: 'CONTACT_RATE_LIMITER',
    })
  })

  it('answers 429 with Retry-After and the failure message', async () => {
    const response = outcomeAnswer({ kind: 'rate_limited', retryAfter: 60 }, request())
    expect(response.status).toBe(429)
    expect(response.headers.get('Retry-After')).toBe('60')
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE })
  })

  it('answers as if sent when the honeypot is filled, and stores and forwards nothing', async () => {
    const outcome = await submit(enquiryInput({ website: 'https://spam.example' }), env())
    expect(outcome).toEqual({ kind: 'ignored' })
    expect(outcomeAnswer(outcome, request()).status).toBe(200)
    expect(allRows()).toEqual([])
    expect(d1.executed).toEqual([])
    expect(fetchMock).not.toHaveBeenCalled()
    expect(printed().json[0]).toMatchObject({ outcome: 'ignored', cause: 'honeypot' })
  })

  it('keys on CF-Connecting-IP', () => {
    expect(clientAddress(request('2001:db8::1'))).toBe('2001:db8::1')
    expect(clientAddress(new Request('http://localhost/'))).toBe('unknown')
  })
})

describe('rateLimitKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9')
    expect(rateLimitKey('unknown')).toBe('unknown')
  })

  it('keys IPv6 addresses by their /64, however they are written', () => {
    const key = rateLimitKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1:2::/64')
    expect(rateLimitKey('2001:db8:1:2:ffff::9')).toBe(key)
    expect(rateLimitKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe(key)
    expect(rateLimitKey('2001:DB8:1:2:abcd:ef01:2345:6789')).toBe(key)
    expect(rateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(rateLimitKey('2001:db8:1:3::1')).not.toBe(key)
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
  })

  it('keys the loopback address', () => {
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64')
  })

  it('keys IPv4-mapped addresses by their IPv4 address, so two IPv4 clients never share a bucket', () => {
    // An IPv4 client written as an IPv6 address (`::ffff:a.b.c.d`) lies in ::ffff:0:0/96; keyed by its
    // /64 it would share one bucket with every other IPv4 client (and with ::1).
    expect(rateLimitKey('::ffff:192.0.2.1')).not.toBe(rateLimitKey('::ffff:198.51.100.7'))
    expect(rateLimitKey('::ffff:192.0.2.1')).not.toBe(rateLimitKey('::1'))
  })
})

describe('networkKey: the coarser key beside rateLimitKey', () => {
  it('keys IPv6 addresses by their /48, however they are written: every /64 of a tunnel broker’s /48 shares it', () => {
    const key = networkKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1::/48')
    expect(networkKey('2001:db8:1:ffff::9')).toBe(key)
    expect(networkKey('2001:0DB8:0001:abcd:0000:0000:0000:0001')).toBe(key)
    expect(networkKey('2001:db8:1::')).toBe(key)
    expect(networkKey('2001:db8:2:2::1')).not.toBe(key)
    expect(networkKey('fe80::1%eth0')).toBe('fe80:0:0::/48')
    // Two /64s of one /48: two client keys, one network key.
    expect(rateLimitKey('2001:db8:1:2::1')).not.toBe(rateLimitKey('2001:db8:1:3::1'))
    expect(networkKey('2001:db8:1:2::1')).toBe(networkKey('2001:db8:1:3::1'))
  })

  it('keys IPv4 addresses, plain or IPv4-mapped, by their /24', () => {
    expect(networkKey('203.0.113.9')).toBe('203.0.113.0/24')
    expect(networkKey('203.0.113.250')).toBe('203.0.113.0/24')
    expect(networkKey('::ffff:203.0.113.9')).toBe('203.0.113.0/24')
    expect(networkKey('::FFFF:203.0.113.77')).toBe('203.0.113.0/24')
    expect(rateLimitKey('::FFFF:203.0.113.77')).toBe('203.0.113.77')
    expect(networkKey('203.0.114.9')).not.toBe(networkKey('203.0.113.9'))
    // Never an IPv6 /48 of the mapped range, which every IPv4 client would share.
    expect(networkKey('::ffff:198.51.100.7')).not.toBe(networkKey('::ffff:203.0.113.9'))
  })

  it('keeps anything that is not an address as it is', () => {
    expect(networkKey('unknown')).toBe('unknown')
  })
})

describe('retryDelays', () => {
  it('is 1 min, 5 min, 30 min, 2 h, 12 h by default', () => {
    expect(DEFAULT_RETRY_DELAYS).toEqual([60, 300, 1800, 7200, 43200])
    expect(retryDelays(contactEnv({}))).toEqual(DEFAULT_RETRY_DELAYS)
    expect(retryDelays(contactEnv({ CONTACT_RETRY_DELAYS: '  ' }))).toEqual(DEFAULT_RETRY_DELAYS)
  })

  it('reads CONTACT_RETRY_DELAYS as seconds', () => {
    expect(retryDelays(contactEnv({ CONTACT_RETRY_DELAYS: '0,0' }))).toEqual([0, 0])
    expect(retryDelays(contactEnv({ CONTACT_RETRY_DELAYS: ' 10 , 20,30 ' }))).toEqual([10, 20, 30])
    expect(retryDelays(contactEnv({ CONTACT_RETRY_DELAYS: '604800' }))).toEqual([604800])
  })

  it('falls back to the default when malformed', () => {
    for (const raw of ['abc', '60,abc', '-1', '1.5', '60;300', '604801', '1e3x']) {
      expect(retryDelays(contactEnv({ CONTACT_RETRY_DELAYS: raw })), raw).toEqual(DEFAULT_RETRY_DELAYS)
    }
  })
})

describe('what the logs hold', () => {
  it('never the visitor’s name, e-mail or message, through a whole life of stores, retries and give-ups', async () => {
    const send = vi.fn(async () => ({}))
    const e = env({ CONTACT_RETRY_DELAYS: '0', CONTACT_EMAIL: { send }, CONTACT_EMAIL_FROM: FROM })
    const data = enquiryInput()
    answer = () => new Response('no', { status: 500 })
    await submit(data, e)
    await submit(data, e) // a repeat
    await deliverDueEnquiries(e, { now: later(1_000), EmailMessageClass: FakeEmailMessage }) // gives up
    await submit(enquiryInput({ email: data.email, website: 'bot' }), e) // honeypot
    d1.broken = true
    await submit(enquiryInput({ email: data.email }), e) // not stored
    d1.broken = false
    const noKey = env({ CONTACT_FORM_ACCESS_KEY: undefined })
    await submit(enquiryInput({ email: data.email }), noKey)
    await deliverDueEnquiries(noKey, { now: later(60_000) }) // config error
    const result = v.safeParse(enquiryInputSchema, { ...data, email: 'not-an-address', subject: '' })
    if (!result.success) invalidInputAnswer(result.issues, request())

    expect(send).toHaveBeenCalledTimes(1)
    const { lines, json } = printed()
    expect(json.map((line) => line.outcome ?? line.event)).toEqual(
      expect.arrayContaining(['stored', 'retry_scheduled', 'repeat', 'gave_up', 'ignored', 'not_stored', 'invalid']),
    )
    expect(lines.length).toBe(json.length)
    expectNoPersonalData(lines, data)
    for (const line of lines) expect(line).not.toContain('not-an-address')
  })

  it('a local server also prints the stored enquiry as a readable block, for the developer', async () => {
    const data = enquiryInput()
    await submit(data, env(), { request: request('127.0.0.1', 'http://localhost:8787/_serverFn/x') })
    const block = printed().lines.find((line) => line.includes('New enquiry stored'))
    expect(block).toContain(`Email:    ${data.email}`)
    expect(block).toContain(`Hello, ${SECRET_WORDS}.`)
  })

  it('answers a refused input with 400, naming the fields, and logs only their names', async () => {
    const result = v.safeParse(enquiryInputSchema, { name: '', email: 'not-an-address', message: SECRET_WORDS })
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
})

it('knows a local server from a deployed one', () => {
  expect(isLocalRequest(new Request('http://localhost:8787/contact'))).toBe(true)
  expect(isLocalRequest(new Request('http://127.0.0.1:8787/contact'))).toBe(true)
  expect(isLocalRequest(new Request('https://aksharalabs.in/contact'))).toBe(false)
})

describe('choosing the delivery', () => {
  it('defaults to the form service', () => {
    expect(planDelivery(contactEnv({ CONTACT_FORM_ACCESS_KEY: KEY }))).toMatchObject({
      requested: 'form-service',
      configured: true,
      delivery: DELIVERIES['form-service'],
    })
  })

  it('attempts nothing, and says what is missing, for an unknown delivery name or a missing secret', () => {
    expect(planDelivery(contactEnv({ CONTACT_DELIVERY: 'pigeon' }))).toEqual({
      requested: 'pigeon',
      configured: false,
      missing: ['CONTACT_DELIVERY'],
      delivery: null,
    })
    expect(planDelivery(contactEnv({ CONTACT_DELIVERY: 'email' }))).toMatchObject({
      configured: false,
      delivery: null,
      missing: ['CONTACT_EMAIL', 'CONTACT_EMAIL_FROM'],
    })
    expect(planDelivery(contactEnv({ CONTACT_DELIVERY: 'none' }))).toEqual({
      requested: 'none',
      configured: true,
      missing: [],
      delivery: null,
    })
  })

  it('reports health without any secret value', () => {
    const e = env()
    const report = healthReport(e)
    expect(report).toEqual({
      ok: true,
      ledger: true,
      delivery: 'form-service',
      configured: true,
      requested: 'form-service',
      missing: [],
      rateLimiter: true,
      turnstile: 'off',
    })
    expect(JSON.stringify(report)).not.toContain(KEY)
    expect(healthReport(contactEnv({ ENQUIRIES: d1.db }))).toMatchObject({
      ok: true,
      delivery: 'none',
      configured: false,
      missing: ['CONTACT_FORM_ACCESS_KEY'],
    })
    expect(healthReport(contactEnv({}))).toMatchObject({ ok: false, ledger: false })
  })
})

describe('an enquiry as the operator reads it', () => {
  it('is one readable block with every field, its state and history, and the message lines indented', () => {
    const block = formatEnquiry(
      {
        ...EMPTY_VALUES,
        id: '20260102-abcdef012345',
        receivedAt: '2026-01-02T03:04:05.678Z',
        name: 'Ravi Kumar',
        email: 'ravi@example.com',
        company: '',
        subject: 'general',
        subjectLabel: 'General Inquiry',
        message: 'First line\nSecond line',
        status: 'pending',
        attempts: 1,
        nextAttemptAt: '2026-01-02T03:05:05.678Z',
        lastCause: 'upstream_status',
        deliveredAt: null,
        deliveredBy: null,
      },
      [
        {
          attempt: 1,
          attemptedAt: '2026-01-02T03:04:05.700Z',
          delivery: 'form-service',
          outcome: 'failed',
          cause: 'upstream_status',
        },
      ],
    )
    expect(block.split('\n')).toEqual([
      '─'.repeat(64),
      'Enquiry 20260102-abcdef012345',
      'Received: 2026-01-02T03:04:05.678Z',
      'Subject:  General Inquiry (general)',
      'Name:     Ravi Kumar',
      'Email:    ravi@example.com',
      'Company:  —',
      'Status:   pending, next attempt 2026-01-02T03:05:05.678Z (1 attempt)',
      'Last failure: upstream_status',
      '  #1 2026-01-02T03:04:05.700Z form-service: failed (upstream_status)',
      'Message:',
      '  First line',
      '  Second line',
      '─'.repeat(64),
    ])
  })
})
