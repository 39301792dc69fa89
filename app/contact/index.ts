/**
 * The contact flow's front door for the browser side: what the contact page and its form import.
 * The server side's is `index.server.ts`. Words the visitor sees are in `status.ts` (messages
 * after sending) and `schema.ts` (messages next to fields); the subjects in `~/content/subjects`.
 *
 * This door carries the validation (valibot). Code that every page's first load carries imports
 * the light modules beside it instead, named as exceptions in `tests/unit/imports.test.ts`:
 * `fields.ts` (the fields and the idempotency key), `draft.ts` and `form-state.ts`.
 */

export { getTurnstileSiteKey } from './contact.functions'
export { clearDraft, loadDraft, saveDraft } from './draft'
export {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  EMPTY_VALUES,
  HONEYPOT_FIELD,
  IDEMPOTENCY_KEY_FIELD,
  newIdempotencyKey,
} from './fields'
export { type ContactFormState, loadContactForm } from './form-state'
export { type FieldErrors, firstInvalidField, MESSAGES, validateContact } from './schema'
export { sendContact } from './send'
export { FAILURE_MESSAGE, type FieldErrorCodes, type FormOutcome, SUCCESS_MESSAGE } from './status'
export { TURNSTILE_ACTION, TURNSTILE_FIELD, TURNSTILE_SCRIPT_URL } from './turnstile'
