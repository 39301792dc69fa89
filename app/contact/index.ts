/** It carries valibot, so first-load code imports the light modules beside it (tests/unit/imports.test.ts). */

export {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  EMPTY_VALUES,
  ENQUIRY_FIELDS,
  type FieldRule,
} from '~/ledger'
export { getTurnstileSiteKey } from './contact.functions'
export { clearDraft } from './draft'
export { loadDraft, saveDraft } from './draft-values'
export { type EarlyAccessFormResult, isEarlyAccessFormResult } from './early-access-result'
export { HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD, newIdempotencyKey } from './fields'
export { type ContactFormState, loadContactForm } from './form-state'
export { type FieldErrors, firstInvalidField, MESSAGES, validateContact } from './schema'
export { sendContact } from './send'
export { FAILURE_MESSAGE, type FieldErrorCodes, type FormOutcome, SUCCESS_MESSAGE } from './status'
export { TURNSTILE_ACTION, TURNSTILE_FIELD, TURNSTILE_SCRIPT_URL } from './turnstile'
