/**
 * The form's fields as code every page's first load may carry (the contact route's loader makes
 * an idempotency key, the deferred form checks for a draft): no valibot here, the rules are `schema.ts`.
 */

/** In the form's order. */
export const CONTACT_FIELDS = ['name', 'email', 'company', 'subject', 'message'] as const
export type ContactField = (typeof CONTACT_FIELDS)[number]

export type ContactValues = Record<ContactField, string>

export const EMPTY_VALUES: ContactValues = { name: '', email: '', company: '', subject: '', message: '' }

/** Hidden from people and assistive technology: only bots fill it in. */
export const HONEYPOT_FIELD = 'website'

/** Made at render (a post without JavaScript has it too), renewed once sent: two posts with one key are one enquiry. */
export const IDEMPOTENCY_KEY_FIELD = 'enquiry_key'
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

/** 128 random bits, URL-safe. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
