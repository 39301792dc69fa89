// @vitest-environment node
// A delivery that fails: kept pending with its cause, retried by the Cron Trigger, given up with a notice.
import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_RETRY_DELAYS, deliverDueEnquiries, retryDelays } from '~/contact/attempts.server'
import { site } from '~/site'
import { contactEnv, FakeEmailMessage, fakeEmailBinding, type SentEmail } from '../support/fake-env'
import {
  type Answer,
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
    const delivered = { status: 'delivered', attempts: 2, delivered_by: 'form-service', next_attempt_at: null }
    expect(rowFor(data.email)).toMatchObject({ ...delivered, last_cause: 'upstream_status' })
    expect(attemptsFor(row.id).map((a) => a.outcome)).toEqual(['failed', 'delivered'])
    expect(await deliverDueEnquiries(e, { now: later(120_000) })).toMatchObject({ due: 0, delivered: 0 })
    expect(form.fetchMock).toHaveBeenCalledTimes(2)
  })

  it.each([
    ['a time-out as upstream_timeout', (): Answer => 'hang', 'upstream_timeout'],
    ['a refusal (success: false) as upstream_refused', () => Response.json({ success: false }), 'upstream_refused'],
  ])('records %s', async (_, answer, cause) => {
    form.answer = answer
    const data = enquiryInput()
    expect(await submit(data, env(), { timeoutMs: 50 })).toMatchObject({ kind: 'stored' })
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 1, last_cause: cause })
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

    const gaveUp = { event: 'contact', level: 'error', enquiryId: row.id, attempt: 3, cause: 'upstream_status' }
    expect(printed().json.filter((line) => line.outcome === 'gave_up')).toEqual([
      expect.objectContaining({ ...gaveUp, notified: true }),
    ])

    expect(send).toHaveBeenCalledTimes(1)
    const notice = send.mock.calls[0]?.[0] as SentEmail
    expect(notice).toBeInstanceOf(FakeEmailMessage)
    expect(notice.to).toBe(site.email)
    expect(notice.from).toBe(FROM)
    expect(subjectOf(notice.raw)).toMatch(/^Enquiry not delivered: Intelligent Automation — /)
    // The notice holds the enquiry itself, so whoever reads it can answer.
    for (const part of [row.id, 'upstream_status', data.email]) expect(emailBody(notice.raw)).toContain(part)
    // Failed is final: later runs neither send the enquiry nor the notice again.
    await deliverDueEnquiries(e, { now: later(3_600_000), EmailMessageClass: FakeEmailMessage })
    expect(form.fetchMock).toHaveBeenCalledTimes(3)
    expect(send).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['without the send_email binding', {}],
    ['when the notice cannot be sent', { CONTACT_EMAIL: fakeEmailBinding({ failing: true }) }],
  ])('logs notified: false %s', async (_, binding) => {
    const { data } = await exhaust({ CONTACT_EMAIL_FROM: FROM, ...binding })
    expect(rowFor(data.email)?.status).toBe('failed')
    expect(printed().json.filter((line) => line.outcome === 'gave_up')).toEqual([
      expect.objectContaining({ notified: false }),
    ])
  })
})

describe('a delivery asked for without what it needs', () => {
  it('keeps the enquiry pending, names the missing secret on every run, and delivers once it is set', async () => {
    const e = env({ CONTACT_FORM_ACCESS_KEY: undefined })
    const data = enquiryInput()
    expect(await submit(data, e)).toMatchObject({ kind: 'stored', repeat: false })
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0, last_cause: null })
    const missing = 'CONTACT_FORM_ACCESS_KEY'
    expect(printed().json.find((line) => line.event === 'contact_config')).toMatchObject({ level: 'warn', missing })

    for (let run = 1; run <= 2; run++) {
      clearPrinted()
      expect(await deliverDueEnquiries(e, { now: later(run * 60_000) })).toMatchObject({ due: 0, delivered: 0 })
      const config = printed().json.filter((line) => line.event === 'contact_config')
      const named = expect.stringContaining(missing)
      expect(config).toEqual([
        expect.objectContaining({ level: 'error', requested: 'form-service', missing, pending: 1, message: named }),
      ])
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
    const nothing = { due: 0, delivered: 0, retryScheduled: 0, gaveUp: 0, notAttempted: 0, leaseLost: 0 }
    for (const run of [1, 2]) expect(await deliverDueEnquiries(e, { now: later(run * 3_600_000) })).toEqual(nothing)
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0, delivered_at: null })
    expect(printed().json.some((line) => line.event === 'contact_config')).toBe(false)
  })
})

describe('retryDelays', () => {
  const DEFAULT = [60, 300, 1800, 7200, 43200]
  it.each<[string | undefined, number[]]>([
    [undefined, DEFAULT],
    ['  ', DEFAULT],
    ['0,0', [0, 0]],
    [' 10 , 20,30 ', [10, 20, 30]],
    ['604800', [604800]],
    ...['abc', '60,abc', '-1', '1.5', '60;300', '604801', '1e3x'].map((raw): [string, number[]] => [raw, DEFAULT]),
  ])('reads CONTACT_RETRY_DELAYS %j as %j seconds (1 min, 5 min, 30 min, 2 h, 12 h by default)', (raw, delays) => {
    expect(retryDelays(contactEnv({ CONTACT_RETRY_DELAYS: raw }))).toEqual(delays)
  })
})
