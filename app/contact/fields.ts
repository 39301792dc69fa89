/**
 * The form's own fields beside the enquiry's (those are the ledger's registry, `ledger/fields.ts`,
 * reached through `~/ledger`): the honeypot, and the idempotency key from `enquiry-key.ts`.
 */

/** Hidden from people and assistive technology: only bots fill it in. */
export const HONEYPOT_FIELD = 'website'

export { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN, newIdempotencyKey } from './enquiry-key'
