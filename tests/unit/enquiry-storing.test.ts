// @vitest-environment node
// Stored in D1 before the form service hears of it; not_stored when D1 fails. Answered before delivery ends: delivery-lease.
import { describe, expect, it, vi } from 'vitest'
import { type EnquiryOutcome, submitEnquiry } from '~/contact/contact.server'
import { FAILURE_MESSAGE } from '~/contact/status'
import { STORE_TIMEOUT_MS } from '~/server/d1.server'
import { FakeEmailMessage, fakeEmailBinding } from '../support/fake-env'
import {
  allRows,
  attemptsFor,
  COMPANY,
  ENDPOINT,
  enquiryInput,
  env,
  expectNoPersonalData,
  FROM,
  form,
  KEY,
  NAME,
  outcomeAnswer,
  printed,
  request,
  rowFor,
  SECRET_WORDS,
  setUpSubmitHarness,
  submit,
} from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

describe('an enquiry is stored before anything else', () => {
  it('is in D1 before the form service hears of it, then delivered once, and the row says so', async () => {
    const data = enquiryInput()
    const outcome = await submit(data, env())
    expect(outcome).toEqual({ kind: 'stored', enquiryId: expect.any(String), repeat: false })

    expect(form.fetchMock).toHaveBeenCalledTimes(1)
    const [post] = form.posts
    expect(post?.url).toBe(ENDPOINT)
    const fields = { name: NAME, company: COMPANY, subject: 'automation', message: `Hello, ${SECRET_WORDS}.` }
    expect(post?.body).toEqual({ ...fields, email: data.email, access_key: KEY })
    // When the form service was called, the enquiry was already stored, pending, with no attempt.
    expect(post?.rowsThen).toEqual([
      expect.objectContaining({ email: data.email, status: 'pending', attempts: 0, delivered_at: null }),
    ])

    const row = rowFor(data.email)
    const id = outcome.kind === 'stored' ? outcome.enquiryId : '?'
    const state = {
      status: 'delivered',
      attempts: 1,
      delivered_by: 'form-service',
      next_attempt_at: null,
      last_cause: null,
    }
    expect(row).toMatchObject({ id, idempotency_key: data.enquiry_key, ...fields, ...state })
    expect(Date.parse(row?.delivered_at ?? '')).not.toBeNaN()
    const attempt = { enquiry_id: id, attempt: 1, delivery: 'form-service', outcome: 'delivered', cause: null }
    expect(attemptsFor(id)).toEqual([{ ...attempt, attempted_at: expect.any(String) }])

    const response = outcomeAnswer(outcome, request())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })

    const { json, lines } = printed()
    expect(json.map((line) => line.outcome)).toEqual(['stored', 'delivered'])
    expect(json[0]).toMatchObject({ event: 'contact', level: 'info', delivery: 'form-service', enquiryId: row?.id })
    expect(json[1]).toMatchObject({ event: 'contact', level: 'info', attempt: 1, upstreamStatus: 200 })
    expectNoPersonalData(lines, data)
  })

  it('is delivered by e-mail when CONTACT_DELIVERY is "email"', async () => {
    const binding = fakeEmailBinding()
    const data = enquiryInput()
    await submit(data, env({ CONTACT_DELIVERY: 'email', CONTACT_EMAIL: binding, CONTACT_EMAIL_FROM: FROM }))
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(binding.sent).toEqual([expect.any(FakeEmailMessage)])
    expect(binding.sent[0]?.raw).toContain(`Reply-To: "${NAME}" <${data.email}>`)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1, delivered_by: 'email' })
  })
})

describe('when the enquiry cannot be stored', () => {
  it('answers not_stored on a D1 error, calls nobody, and logs one line without personal data', async () => {
    form.d1.broken = true
    const data = enquiryInput()
    const outcome = await submit(data, env())
    expect(outcome).toEqual({ kind: 'not_stored', cause: 'store_error' })
    expect(form.fetchMock).not.toHaveBeenCalled()

    const { lines, json, calls } = printed()
    expect(calls).toBe(1)
    expect(form.printed.spies[3]?.mock.calls).toHaveLength(1) // console.error
    expect(json[0]).toMatchObject({ event: 'contact', level: 'error', outcome: 'not_stored', cause: 'store_error' })
    expectNoPersonalData(lines, data)

    form.d1.broken = false
    expect(allRows()).toEqual([])
    const response = outcomeAnswer(outcome, request())
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ ok: false, error: 'not_stored', message: FAILURE_MESSAGE })
  })

  it(`answers not_stored (store_timeout) when D1 hangs, after the fixed ${STORE_TIMEOUT_MS / 1000} s time-out`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    form.d1.hang = true
    const data = enquiryInput()
    let settled: EnquiryOutcome | undefined
    const pending = submitEnquiry(data, { requestId: 'r', env: env(), request: request() })
    pending.then((outcome) => (settled = outcome))
    await vi.advanceTimersByTimeAsync(STORE_TIMEOUT_MS - 1)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(await pending).toEqual({ kind: 'not_stored', cause: 'store_timeout' })
    expect(form.fetchMock).not.toHaveBeenCalled()
    const { json, lines, calls } = printed()
    expect(calls).toBe(1)
    expect(json[0]).toMatchObject({ level: 'error', outcome: 'not_stored', cause: 'store_timeout' })
    expectNoPersonalData(lines, data)
  })

  it('answers not_stored when the ENQUIRIES binding is missing', async () => {
    const outcome = await submit(enquiryInput(), env({ ENQUIRIES: undefined }))
    expect(outcome).toEqual({ kind: 'not_stored', cause: 'missing_store_binding' })
    expect(form.fetchMock).not.toHaveBeenCalled()
  })
})
