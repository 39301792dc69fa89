// What the server function accepts from a client: unknown keys dropped, the idempotency key checked, the honeypot carried.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN, newIdempotencyKey } from '~/contact/fields'
import { enquiryInputSchema, fieldErrorsFrom } from '~/contact/schema'
import { CONTACT_FIELDS } from '~/ledger'
import { valid } from '../support/contact-values'

describe('what the server accepts', () => {
  it('drops an access_key and other unknown keys sent by a client', () => {
    const result = v.safeParse(enquiryInputSchema, {
      ...valid,
      access_key: 'client-supplied',
      __proto__: { polluted: true },
      extra: 1,
    })
    expect(result.success).toBe(true)
    if (result.success) {
      expect(result.output).not.toHaveProperty('access_key')
      expect(result.output).not.toHaveProperty('extra')
      expect(Object.keys(result.output).sort()).toEqual([...CONTACT_FIELDS, 'website'].sort())
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('passes a well-formed idempotency key through, drops a malformed one, and refuses a non-string', () => {
    const key = newIdempotencyKey()
    expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN)
    const parsed = v.safeParse(enquiryInputSchema, { ...valid, [IDEMPOTENCY_KEY_FIELD]: key })
    expect(parsed.success && parsed.output.enquiry_key).toBe(key)
    for (const malformed of [
      'short',
      'has spaces in it 0123456789',
      'ü'.repeat(20),
      'x'.repeat(65),
      'x'.repeat(200),
      'x'.repeat(5000),
    ]) {
      const result = v.safeParse(enquiryInputSchema, { ...valid, [IDEMPOTENCY_KEY_FIELD]: malformed })
      expect(result.success, malformed).toBe(true)
      expect(result.success && result.output.enquiry_key, malformed).toBeUndefined()
    }
    const absent = v.safeParse(enquiryInputSchema, valid)
    expect(absent.success && absent.output.enquiry_key).toBeUndefined()
    // Not text at all: refused as a whole (no form sends that).
    for (const notText of [42, ['k'.repeat(22)], { key: 'k'.repeat(22) }, null]) {
      const result = v.safeParse(enquiryInputSchema, { ...valid, [IDEMPOTENCY_KEY_FIELD]: notText })
      expect(result.success, JSON.stringify(notText)).toBe(false)
      if (!result.success) expect(fieldErrorsFrom(result.issues)).toEqual({})
    }
  })

  it('makes keys that differ each time', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey))
    expect(keys.size).toBe(100)
  })

  it('carries the honeypot, empty by default', () => {
    const result = v.safeParse(enquiryInputSchema, valid)
    expect(result.success && result.output.website).toBe('')
    const filled = v.safeParse(enquiryInputSchema, { ...valid, website: 'http://spam.example' })
    expect(filled.success && filled.output.website).toBe('http://spam.example')
  })
})
