// @vitest-environment node
// Which delivery the Worker uses, what it reports as its health, and how an operator reads an enquiry.
import { describe, expect, it, vi } from 'vitest'
import { DELIVERIES, planDelivery } from '~/contact/deliveries/index.server'
import { healthReport } from '~/contact/health.server'
import { EMPTY_VALUES, formatEnquiry } from '~/ledger'
import { contactEnv, FakeEmailMessage } from '../support/fake-env'
import { env, form, KEY, setUpSubmitHarness } from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

describe('choosing the delivery', () => {
  it('defaults to the form service', () => {
    const plan = { requested: 'form-service', configured: true, delivery: DELIVERIES['form-service'] }
    expect(planDelivery(contactEnv({ CONTACT_FORM_ACCESS_KEY: KEY }))).toMatchObject(plan)
  })

  it('attempts nothing, and says what is missing, for an unknown delivery name or a missing secret', () => {
    const plan = (name: string) => planDelivery(contactEnv({ CONTACT_DELIVERY: name }))
    expect(plan('pigeon')).toEqual({
      requested: 'pigeon',
      configured: false,
      missing: ['CONTACT_DELIVERY'],
      delivery: null,
    })
    const email = { configured: false, delivery: null, missing: ['CONTACT_EMAIL', 'CONTACT_EMAIL_FROM'] }
    expect(plan('email')).toMatchObject(email)
    expect(plan('none')).toEqual({ requested: 'none', configured: true, missing: [], delivery: null })
  })

  it('reports health without any secret value', () => {
    const report = healthReport(env())
    const delivery = { delivery: 'form-service', configured: true, requested: 'form-service', missing: [] }
    expect(report).toEqual({ ok: true, ledger: true, ...delivery, rateLimiter: true, turnstile: 'off' })
    expect(JSON.stringify(report)).not.toContain(KEY)
    const keyless = { ok: true, delivery: 'none', configured: false, missing: ['CONTACT_FORM_ACCESS_KEY'] }
    expect(healthReport(contactEnv({ ENQUIRIES: form.d1.db }))).toMatchObject(keyless)
    expect(healthReport(contactEnv({}))).toMatchObject({ ok: false, ledger: false })
  })
})

describe('an enquiry as the operator reads it', () => {
  it('is one readable block with every field, its state and history, and the message lines indented', () => {
    const enquiry = {
      ...EMPTY_VALUES,
      ...{ id: '20260102-abcdef012345', receivedAt: '2026-01-02T03:04:05.678Z', name: 'Ravi Kumar' },
      ...{ email: 'ravi@example.com', company: '', subject: 'general', subjectLabel: 'General Inquiry' },
      ...{ message: 'First line\nSecond line', status: 'pending' as const, attempts: 1, lastCause: 'upstream_status' },
      ...{ nextAttemptAt: '2026-01-02T03:05:05.678Z', deliveredAt: null, deliveredBy: null },
    }
    const attempt = {
      attempt: 1,
      attemptedAt: '2026-01-02T03:04:05.700Z',
      delivery: 'form-service',
      outcome: 'failed' as const,
    }
    const block = formatEnquiry(enquiry, [{ ...attempt, cause: 'upstream_status' }])
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
