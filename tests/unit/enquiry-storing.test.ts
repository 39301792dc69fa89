// @vitest-environment node
/**
 * What comes first on the server: the enquiry stored in D1 before the form service hears of it, the
 * visitor answered before the delivery ends, and a clear not_stored when D1 fails, hangs or is not bound.
 * The harness: tests/support/submit-harness.ts.
 */
import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { type EnquiryOutcome, submitEnquiry } from '~/contact/contact.server'
import { enquiryInputSchema } from '~/contact/schema'
import { FAILURE_MESSAGE } from '~/contact/status'
import { STORE_TIMEOUT_MS } from '~/server/d1.server'
import { FakeEmailMessage, fakeEmailBinding, waitUntilCollector } from '../support/fake-env'
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
    form.answer = () => new Promise<Response>((resolve) => (release = resolve))
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
    await vi.waitFor(() => expect(form.fetchMock).toHaveBeenCalledTimes(1))
    expect(rowFor(data.email)).toMatchObject({ status: 'pending', attempts: 0 })

    release(Response.json({ success: true }))
    await work.settle()
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('never forwards an access_key sent by a client', async () => {
    const data = v.parse(enquiryInputSchema, { ...enquiryInput(), access_key: 'from-the-browser' })
    await submit(data, env())
    expect(form.posts[0]?.body.access_key).toBe(KEY)
    expect(JSON.stringify(form.posts[0]?.body)).not.toContain('from-the-browser')
  })

  it('is delivered by e-mail when CONTACT_DELIVERY is "email"', async () => {
    const binding = fakeEmailBinding()
    const data = enquiryInput()
    const outcome = await submit(
      data,
      env({ CONTACT_DELIVERY: 'email', CONTACT_EMAIL: binding, CONTACT_EMAIL_FROM: FROM }),
    )
    expect(outcome).toMatchObject({ kind: 'stored' })
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(binding.sent).toHaveLength(1)
    expect(binding.sent[0]).toBeInstanceOf(FakeEmailMessage)
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
    expect(form.consoleSpies[3]?.mock.calls).toHaveLength(1) // console.error
    expect(json[0]).toMatchObject({ event: 'contact', level: 'error', outcome: 'not_stored', cause: 'store_error' })
    expectNoPersonalData(lines, data)

    form.d1.broken = false
    expect(allRows()).toEqual([])
    const response = outcomeAnswer(outcome, request())
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ ok: false, error: 'not_stored', message: FAILURE_MESSAGE })
  })

  it(`answers not_stored (store_timeout) when D1 hangs, after the fixed ${STORE_TIMEOUT_MS / 1000} s time-out`, async () => {
    // STORE_TIMEOUT_MS is fixed (5 s), so the clock is faked: only setTimeout/clearTimeout.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    form.d1.hang = true
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
