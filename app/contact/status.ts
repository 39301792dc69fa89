import type { ContactField, ContactValues } from './fields'
import type { MessageCode } from './schema'

/** What the visitor sees after sending (spec §4 and §8, verbatim). */
export const SUCCESS_MESSAGE = 'Your message has been sent successfully!'
export const FAILURE_MESSAGE = 'Something went wrong. Please try again.'

/** Machine-readable reasons in the contact endpoints' JSON answers. */
export type ContactErrorCode =
  | 'invalid_input'
  | 'malformed_body'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'not_stored'

/** The JSON body of every contact endpoint answer. */
export type ContactAnswer =
  | { ok: true }
  | { ok: false; error: ContactErrorCode; message: string; fields?: Record<string, string> }

/**
 * The result of a form post made without JavaScript, as it travels back to the `/contact` page
 * (in a cookie: `form-post.server.ts`). Errors travel as message codes, never words.
 */
export type FormResult =
  | { status: 'success' }
  | { status: 'failure'; values: ContactValues }
  | { status: 'invalid'; values: ContactValues; errors: FieldErrorCodes }

export type FieldErrorCodes = Partial<Record<ContactField, MessageCode>>
