import type { ReplyBody } from '~/server/reply'
import type { ContactField, ContactValues } from './fields'
import type { MessageCode } from './schema'

/** What the visitor sees after sending (spec §4 and §8, verbatim). */
export const SUCCESS_MESSAGE = 'Your message has been sent successfully!'
export const FAILURE_MESSAGE = 'Something went wrong. Please try again.'

/** Machine-readable reasons in the contact endpoints' replies. */
export type ContactErrorCode =
  | 'invalid_input'
  | 'malformed_body'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'not_stored'

/** The body of every contact endpoint's reply (`app/server/reply.ts`). */
export type ContactReplyBody = ReplyBody<ContactErrorCode>

/**
 * The result of a form post made without JavaScript, as it travels back to the `/contact` page
 * (in a cookie: `form-post.server.ts`). Errors travel as message codes, never words.
 */
export type FormOutcome =
  | { status: 'success' }
  | { status: 'failure'; values: ContactValues }
  | { status: 'invalid'; values: ContactValues; errors: FieldErrorCodes }

export type FieldErrorCodes = Partial<Record<ContactField, MessageCode>>
