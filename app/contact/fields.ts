/**
 * The contact form's fields as the first load of any page may know them: their names, the
 * values' type, the empty values, the honeypot and the form fill's idempotency key. No valibot
 * here (the rules are `schema.ts`): the contact route's loader makes an idempotency key in the
 * browser too, and the deferred form checks for a draft, both in code every page's first load
 * carries, which must not carry the validator.
 */

/** The fields a visitor fills in, in the order the form shows them. */
export const CONTACT_FIELDS = ['name', 'email', 'company', 'subject', 'message'] as const
export type ContactField = (typeof CONTACT_FIELDS)[number]

/** The form's values as typed, before validation. */
export type ContactValues = Record<ContactField, string>

export const EMPTY_VALUES: ContactValues = { name: '', email: '', company: '', subject: '', message: '' }

/** Name of the honeypot field: hidden from people and assistive technology, filled in only by bots. */
export const HONEYPOT_FIELD = 'website'

/**
 * Name of the hidden field that carries the form fill's idempotency key: made when the form
 * renders (so a post without JavaScript has it too) and renewed after a message is sent. Two
 * posts with the same key are one enquiry.
 */
export const IDEMPOTENCY_KEY_FIELD = 'enquiry_key'
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

/** A fresh idempotency key: 128 random bits, URL-safe. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
