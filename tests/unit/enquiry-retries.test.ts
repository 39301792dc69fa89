// @vitest-environment node
/**
 * A delivery that fails: the row kept pending with its cause, the Cron Trigger's retries and their
 * delays, the give-up and its notice to the company mailbox, and a delivery asked for without its secret.
 * The harness: tests/support/submit-harness.ts.
 */
import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_RETRY_DELAYS, deliverDueEnquiries, retryDelays } from '~/contact/attempts.server'
import { site } from '~/site'
import { contactEnv, FakeEmailMessage, fakeEmailBinding, type SentEmail } from '../support/fake-env'
import {
  attemptsFor,
  clearPrinted,
  emailBody,
  enquiryInput,
  env,
  FROM,
  form,
  KEY,
  later,
  printed,
  type Row,
  rowFor,
  setUpSubmitHarness,
  subjectOf,
  submit,
} from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

describe('when the form service fails', () => {
  it('keeps the row pending with the cause, retries a minute later in a scheduled run, and sends it once', async () => {
    form.answer = () => Response.json({ success: false, message: 'Server error' }, { status: 500 })
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
    expect(form.fetchMock).toHaveBeenCalledTimes(1)

    // The service is back, and the next attempt is due.
    form.answer = () => Response.json({ success: true })
    const summary = await deliverDueEnquiries(e, { now: later(61_000) })
    expect(summary).toEqual({ due: 1, delivered: 1, retryScheduled: 0, gaveUp: 0, notAttempted: 0, leaseLost: 0 })
    expect(form.fetchMock).toHaveBeenCalledTimes(2)
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
    expect(form.fetchMock).toHaveBeenCalledTimes(2)
  })

  it('records a time-out as upstream_timeout', async () => {
    form.answer = () => 'hang'
    const data = enquiryInput()
    expect(await submit(data, env(), { timeoutMs: 50 })).toMatchObject({ kind: 'stored' })
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 1, last_cause: 'upstream_timeout' })
  })

  it('records a refusal (success: false) as upstream_refused', async () => {
    form.answer = () => Response.json({ success: false, message: 'Invalid access key' })
    const data = enquiryInput()
    await submit(data, env())
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', last_cause: 'upstream_refused' })
  })
})

describe('after the last attempt', () => {
  const failing = () => Response.json({ success: false }, { status: 503 })

  async function exhaust(extra: Record<string, unknown>) {
    form.answer = failing
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
    expect(form.fetchMock).toHaveBeenCalledTimes(3)

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
    expect(form.fetchMock).toHaveBeenCalledTimes(3)
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
    expect(form.fetchMock).not.toHaveBeenCalled()
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
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0 })

    clearPrinted()
    e.CONTACT_FORM_ACCESS_KEY = KEY
    expect(await deliverDueEnquiries(e, { now: later(180_000) })).toMatchObject({ due: 1, delivered: 1 })
    expect(form.fetchMock).toHaveBeenCalledTimes(1)
    expect(form.posts[0]?.body.access_key).toBe(KEY)
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
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0, delivered_at: null })
    expect(attemptsFor(rowFor(data.email)?.id ?? '')).toEqual([])
    expect(printed().json.some((line) => line.event === 'contact_config')).toBe(false)
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
