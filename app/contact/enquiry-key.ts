/** The enquiry's idempotency key; every page's first load may carry it, so no valibot and no registry. */

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
