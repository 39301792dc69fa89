/** The form's side of the enquiry's fields: the registry is the ledger's (`ledger/fields.ts`). */
export {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  EMPTY_VALUES,
  ENQUIRY_FIELDS,
  type FieldKind,
  type FieldRule,
  MESSAGES,
  type MessageCode,
} from '~/ledger'

/** Hidden from people and assistive technology: only bots fill it in. */
export const HONEYPOT_FIELD = 'website'

export { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN, newIdempotencyKey } from './enquiry-key'
