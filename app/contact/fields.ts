/** The form's own fields beside the enquiry's (the ledger's registry): the honeypot and the idempotency key. */

/** Hidden from people and assistive technology: only bots fill it in. */
export const HONEYPOT_FIELD = 'website'

export { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN, newIdempotencyKey } from './enquiry-key'
