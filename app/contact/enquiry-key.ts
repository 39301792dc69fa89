/**
 * The form's idempotency key. Its own module, without valibot: the contact route's loader makes one
 * in the browser too, and the route's loader is part of the route tree every page loads.
 */
export const ENQUIRY_KEY_FIELD = 'enquiry_key'
export const ENQUIRY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

/** A fresh idempotency key: 128 random bits, URL-safe. */
export function newEnquiryKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
