// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { deliverySetup, setupGaps } from '../../app/desk/setup.server'
import type { WorkerEnv } from '../../app/server/runtime.server'

/** The desk's one set-up line (`/admin`): what is missing, in words, or nothing at all. */
const bound = { ENQUIRIES: {}, CONTACT_RATE_LIMITER: {}, CONTACT_NETWORK_RATE_LIMITER: {} }
const complete = {
  ...bound,
  CONTACT_DELIVERY: 'form-service',
  CONTACT_FORM_ACCESS_KEY: 'key',
  ACCESS_ALLOWED_EMAILS: 'first@example.com',
}
const gaps = (env: Record<string, unknown>) => setupGaps(deliverySetup(env as unknown as WorkerEnv))

describe('the set-up’s gaps', () => {
  it('are none when the delivery has its key, the bindings are there and the desk has an allow-list', () => {
    expect(gaps(complete)).toEqual([])
    expect(
      gaps({ ...complete, ACCESS_ALLOWED_EMAILS: '', ACCESS_POLICY_ONLY_REASON: 'The policy is a group of two.' }),
    ).toEqual([])
  })

  it('name each missing part', () => {
    expect(gaps({ ...complete, CONTACT_FORM_ACCESS_KEY: '' })).toEqual(['the delivery needs CONTACT_FORM_ACCESS_KEY'])
    expect(gaps({ ...complete, CONTACT_RATE_LIMITER: undefined })).toEqual(['the rate limiters are not bound'])
    expect(gaps({ ...complete, ENQUIRIES: undefined })).toEqual(['no enquiry database is bound'])
    expect(gaps({ ...complete, TURNSTILE_SECRET_KEY: 'secret' })).toEqual(['Turnstile needs TURNSTILE_SITE_KEY'])
    expect(gaps({ ...complete, ACCESS_ALLOWED_EMAILS: '' })).toEqual([
      'no allow-list, nor a reason for the Access policy alone',
    ])
    expect(gaps({ ...complete, WEBHOOK_ENDPOINTS: 'crm=http://example.com/hook' })).toEqual([
      'a webhook endpoint is refused',
    ])
  })

  it('never hold a secret’s value', () => {
    const text = gaps({
      ...bound,
      CONTACT_DELIVERY: 'form-service',
      TURNSTILE_SECRET_KEY: 'turnstile-secret-value',
    }).join(' ')
    expect(text).not.toContain('turnstile-secret-value')
    expect(text).toContain('CONTACT_FORM_ACCESS_KEY')
  })
})
