/**
 * The contact flow's front door for the browser side: what the contact page and its form import.
 * The server side's is `index.server.ts`. Words the visitor sees are in `status.ts` (messages
 * after sending) and `schema.ts` (messages next to fields); the subjects in `subjects.ts`.
 */

export { getTurnstileSiteKey } from './contact.functions'
export { clearDraft, loadDraft, saveDraft } from './draft'
export type { FieldErrorCodes, FormResult } from './form-result'
export { type ContactFormState, loadContactForm } from './form-state'
export {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  EMPTY_VALUES,
  ENQUIRY_KEY_FIELD,
  type FieldErrors,
  firstInvalidField,
  HONEYPOT_FIELD,
  MESSAGES,
  newEnquiryKey,
  validateContact,
} from './schema'
export { sendContact } from './send'
export { FAILURE_MESSAGE, SUCCESS_MESSAGE } from './status'
export { isSubject, parseSubjectParam, SUBJECTS, type Subject } from './subjects'
export { TURNSTILE_ACTION, TURNSTILE_FIELD, TURNSTILE_SCRIPT_URL } from './turnstile'
