import type { ContactField, ContactValues } from '~/ledger'
import type { ReplyBody } from '~/server/reply'
import type { MessageCode } from './schema'

/** Spec §4 and §8, verbatim. */
export const SUCCESS_MESSAGE = 'Your message has been sent successfully!'
export const FAILURE_MESSAGE = 'Something went wrong. Please try again.'

export type ContactErrorCode =
  | 'invalid_input'
  | 'malformed_body'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'not_stored'

export type ContactReplyBody = ReplyBody<ContactErrorCode>

/** A no-JavaScript post's result, carried back to `/contact` in a cookie; errors as message codes, never words. */
export type FormOutcome =
  | { status: 'success' }
  | { status: 'failure'; values: ContactValues }
  | { status: 'invalid'; values: ContactValues; errors: FieldErrorCodes }

export type FieldErrorCodes = Partial<Record<ContactField, MessageCode>>
