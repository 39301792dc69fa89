// @vitest-environment node
// What comes before the ledger: the rate limiter's verdict and the honeypot.
import { describe, expect, it, vi } from 'vitest'
import type { EnquiryOutcome } from '~/contact/contact.server'
import { RATE_LIMIT_PERIOD_SECONDS } from '~/contact/limits.server'
import { FAILURE_MESSAGE } from '~/contact/status'
import { FakeEmailMessage, fakeRateLimiter } from '../support/fake-env'
import {
  allRows,
  enquiryInput,
  env,
  form,
  outcomeAnswer,
  printed,
  request,
  setUpSubmitHarness,
  submit,
} from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

describe('the rate limit and the honeypot come before the ledger', () => {
  it('stores and delivers what the limiter lets through, and nothing once it says no, asking it by client address', async () => {
    const limiter = fakeRateLimiter(2)
    const e = env({ CONTACT_RATE_LIMITER: limiter })
    const outcomes: EnquiryOutcome[] = []
    for (let i = 0; i < 3; i++) outcomes.push(await submit(enquiryInput(), e, { request: request('203.0.113.9') }))
    expect(outcomes.slice(0, 2).every((o) => o.kind === 'stored')).toBe(true)
    expect(outcomes[2]).toEqual({ kind: 'rate_limited', retryAfter: RATE_LIMIT_PERIOD_SECONDS })
    expect(allRows()).toHaveLength(2)
    expect(form.fetchMock).toHaveBeenCalledTimes(2)
    expect(limiter.calls).toEqual(Array(3).fill('203.0.113.9'))
    expect(printed().json.at(-1)).toMatchObject({ event: 'contact', outcome: 'rate_limited', level: 'warn' })
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
    expect(form.d1.executed).toEqual([])
    expect(form.fetchMock).not.toHaveBeenCalled()
    expect(printed().json[0]).toMatchObject({ outcome: 'ignored', cause: 'honeypot' })
  })
})
