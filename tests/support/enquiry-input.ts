import * as v from 'valibot'
import { newIdempotencyKey } from '~/contact/fields'
import { type EnquiryInput, enquiryInputSchema } from '~/contact/schema'
import { TURNSTILE_FIELD } from '~/contact/turnstile'
import { enquiry } from './values'

/**
 * What the form's server function receives, checked by its own schema: an enquiry from an address
 * of its own (`label`), a fresh idempotency key, and `overrides` (a Turnstile token, a source…).
 */
export function enquiryInput(label: string, overrides: Record<string, unknown> = {}): EnquiryInput {
  return v.parse(enquiryInputSchema, { ...enquiry(label), enquiry_key: newIdempotencyKey(), ...overrides })
}

/** A short enquiry with a Turnstile token, or none: what the flood and Turnstile tests send. */
export function tokenEnquiryInput(label: string, token?: string): EnquiryInput {
  return enquiryInput(label, {
    name: 'Ravi Kumar',
    company: '',
    subject: 'general',
    message: 'Hello',
    ...(token === undefined ? {} : { [TURNSTILE_FIELD]: token }),
  })
}
