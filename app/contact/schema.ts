import * as v from 'valibot'
import { SUBJECT_VALUES } from '~/content/subjects'
import { SOURCE_FIELDS, type SourceField } from '~/lib/visit-source'
import {
  CONTACT_FIELDS,
  type ContactField,
  HONEYPOT_FIELD,
  IDEMPOTENCY_KEY_FIELD,
  IDEMPOTENCY_KEY_PATTERN,
} from './fields'
import { TURNSTILE_FIELD, TURNSTILE_TOKEN_MAX } from './turnstile'

/** Shared by browser and server. Trimmed first; lengths count graphemes, so "é" or "👍🏽" counts as one. */
export const LIMITS = {
  name: 100,
  email: 254,
  company: 100,
  message: 5000,
} as const

/** UTF-8 caps too: combining marks let 100 graphemes reach ~30 KB; an Indic conjunct is ~12 bytes. */
export const BYTE_LIMITS = {
  name: 1200,
  company: 1200,
  message: 24_000,
} as const

/** Controls, line and paragraph separators, and the bidirectional controls that can make a name read as another. */
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u
const MESSAGE_CONTROL_CHARACTERS = /(?![\t\n\r])\p{Cc}/u

/** WHATWG's "valid e-mail address", what `<input type="email">` accepts: `o'brien@example.com` included. */
export const BROWSER_EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

const singleLine = (message: string) => v.check<string, string>((s) => !SINGLE_LINE_FORBIDDEN.test(s), message)

export const MESSAGES = {
  nameRequired: 'Please enter your name.',
  nameTooLong: `Please use at most ${LIMITS.name} characters for your name.`,
  nameInvalid: 'Please remove line breaks and special control characters from your name.',
  emailRequired: 'Please enter your email address.',
  emailInvalid: 'Please enter a valid email address, like name@example.com.',
  emailTooLong: `Email addresses can be at most ${LIMITS.email} characters.`,
  companyTooLong: `Please use at most ${LIMITS.company} characters for the company name.`,
  companyInvalid: 'Please remove line breaks and special control characters from the company name.',
  subjectRequired: 'Please choose a subject.',
  messageRequired: 'Please write a message.',
  messageTooLong: `Please keep your message to at most ${LIMITS.message} characters.`,
  messageInvalid: 'Please remove special control characters from your message.',
} as const

export const contactSchema = v.object({
  name: v.pipe(
    v.string(MESSAGES.nameRequired),
    v.trim(),
    v.nonEmpty(MESSAGES.nameRequired),
    v.maxGraphemes(LIMITS.name, MESSAGES.nameTooLong),
    v.maxBytes(BYTE_LIMITS.name, MESSAGES.nameTooLong),
    singleLine(MESSAGES.nameInvalid),
  ),
  email: v.pipe(
    v.string(MESSAGES.emailRequired),
    v.trim(),
    v.nonEmpty(MESSAGES.emailRequired),
    v.maxLength(LIMITS.email, MESSAGES.emailTooLong),
    v.regex(BROWSER_EMAIL_PATTERN, MESSAGES.emailInvalid),
  ),
  company: v.optional(
    v.pipe(
      v.string(MESSAGES.companyInvalid),
      v.trim(),
      v.maxGraphemes(LIMITS.company, MESSAGES.companyTooLong),
      v.maxBytes(BYTE_LIMITS.company, MESSAGES.companyTooLong),
      singleLine(MESSAGES.companyInvalid),
    ),
    '',
  ),
  subject: v.picklist(SUBJECT_VALUES, MESSAGES.subjectRequired),
  message: v.pipe(
    v.string(MESSAGES.messageRequired),
    // Browsers post a textarea's line breaks as CRLF; the message keeps plain line feeds.
    v.transform((s) => s.replace(/\r\n?/g, '\n')),
    v.trim(),
    v.nonEmpty(MESSAGES.messageRequired),
    v.maxGraphemes(LIMITS.message, MESSAGES.messageTooLong),
    v.maxBytes(BYTE_LIMITS.message, MESSAGES.messageTooLong),
    v.check((s) => !MESSAGE_CONTROL_CHARACTERS.test(s), MESSAGES.messageInvalid),
  ),
})

export const SOURCE_LIMITS = { path: 200, host: 253, utm: 100, utmBytes: 300 } as const

/** `/` then URL-safe characters, never `//` (another host) or `\\`. */
const SAME_SITE_PATH = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/
/** IDNs arrive as `xn--`. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

export function sameSitePath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > SOURCE_LIMITS.path) return undefined
  return SAME_SITE_PATH.test(value) ? value : undefined
}

export function hostName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const host = value.trim().toLowerCase().replace(/\.$/, '')
  return HOST_NAME.test(host) ? host : undefined
}

export function utmValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (text === '' || SINGLE_LINE_FORBIDDEN.test(text) || /[<>]/.test(text)) return undefined
  const ok = v.safeParse(
    v.pipe(v.string(), v.maxGraphemes(SOURCE_LIMITS.utm), v.maxBytes(SOURCE_LIMITS.utmBytes)),
    text,
  ).success
  return ok ? text : undefined
}

const SOURCE_RULES: Record<SourceField, (value: unknown) => string | undefined> = {
  source_page: sameSitePath,
  source_first_page: sameSitePath,
  source_referrer: hostName,
  utm_source: utmValue,
  utm_medium: utmValue,
  utm_campaign: utmValue,
}

/** A source value that breaks its rule is dropped, never a reason to refuse the enquiry. */
const sourceEntries = Object.fromEntries(
  SOURCE_FIELDS.map((field) => [field, v.optional(v.pipe(v.unknown(), v.transform(SOURCE_RULES[field])))]),
) as Record<
  SourceField,
  v.OptionalSchema<
    v.SchemaWithPipe<readonly [v.UnknownSchema, v.TransformAction<unknown, string | undefined>]>,
    undefined
  >
>

/**
 * Keys not listed (an `access_key` sent by a client) are dropped. A malformed idempotency key is
 * dropped too, as is a post without one (a new enquiry each time): refusing it would lose a lead
 * over a field the visitor never saw.
 */
export const contactSubmissionSchema = v.object({
  ...contactSchema.entries,
  [HONEYPOT_FIELD]: v.optional(v.pipe(v.string(), v.maxLength(1000)), ''),
  [IDEMPOTENCY_KEY_FIELD]: v.optional(
    v.pipe(
      v.string(),
      v.transform((key) => (IDEMPOTENCY_KEY_PATTERN.test(key) ? key : undefined)),
    ),
  ),
  // One that cannot be a token is dropped, not refused: the enquiry is held, as without a token.
  [TURNSTILE_FIELD]: v.optional(
    v.pipe(
      v.string(),
      v.transform((token) => (token.length > 0 && token.length <= TURNSTILE_TOKEN_MAX ? token : undefined)),
    ),
  ),
  ...sourceEntries,
})

export type ContactMessage = v.InferOutput<typeof contactSchema>
export type ContactSubmission = v.InferOutput<typeof contactSubmissionSchema>
export type ContactSubmissionInput = v.InferInput<typeof contactSubmissionSchema>

export type FieldErrors = Partial<Record<ContactField, string>>

export type ValidationOutcome = { success: true; output: ContactMessage } | { success: false; errors: FieldErrors }

function isContactField(key: unknown): key is ContactField {
  return typeof key === 'string' && (CONTACT_FIELDS as readonly string[]).includes(key)
}

const MISSING: Record<ContactField, string> = {
  name: MESSAGES.nameRequired,
  email: MESSAGES.emailRequired,
  company: MESSAGES.companyInvalid,
  subject: MESSAGES.subjectRequired,
  message: MESSAGES.messageRequired,
}

/** The first message for each field (issues about other keys are left out). */
export function fieldErrorsFrom(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) {
    const step = issue.path?.[0]
    const key = step?.key
    if (!isContactField(key)) continue
    const missingKey = step?.type === 'object' && step.origin === 'key'
    errors[key] ??= missingKey ? MISSING[key] : issue.message
  }
  return errors
}

export function validateContact(values: unknown): ValidationOutcome {
  const result = v.safeParse(contactSchema, values)
  if (result.success) return { success: true, output: result.output }
  return { success: false, errors: fieldErrorsFrom(result.issues) }
}

export function firstInvalidField(errors: FieldErrors): ContactField | undefined {
  return CONTACT_FIELDS.find((field) => errors[field])
}

/** What travels in the no-JavaScript outcome cookie: a message's name, never its words. */
export type MessageCode = keyof typeof MESSAGES

export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value)
}

export function messageCode(message: string): MessageCode | undefined {
  return (Object.keys(MESSAGES) as MessageCode[]).find((code) => MESSAGES[code] === message)
}
