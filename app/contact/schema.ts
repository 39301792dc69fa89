import * as v from 'valibot'
import { SUBJECT_VALUES, type Subject } from '~/content/subjects'
import { CONTACT_FIELDS, type ContactField, ENQUIRY_FIELDS, type FieldRule, MESSAGES, type MessageCode } from '~/ledger'
import { SOURCE_FIELDS, type SourceField } from '~/lib/visit-source'
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN } from './fields'
import { TURNSTILE_FIELD, TURNSTILE_TOKEN_MAX } from './turnstile'

/** Trimmed first; lengths count graphemes, so "é" or "👍🏽" counts as one (an address counts characters). */
export const LIMITS = limitsOf('max')

/** UTF-8 caps too: combining marks let 100 graphemes reach ~30 KB; an Indic conjunct is ~12 bytes. */
export const BYTE_LIMITS = limitsOf('maxBytes')

function limitsOf(limit: 'max' | 'maxBytes') {
  const entries = CONTACT_FIELDS.flatMap((field) => {
    const rule: FieldRule = ENQUIRY_FIELDS[field]
    const value = rule[limit]
    return value === undefined ? [] : [[field, value] as const]
  })
  return Object.fromEntries(entries) as Readonly<Record<ContactField, number>>
}

/** Controls, line and paragraph separators, and the bidirectional controls that can make a name read as another. */
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u
const MESSAGE_CONTROL_CHARACTERS = /(?![\t\n\r])\p{Cc}/u

/** WHATWG's "valid e-mail address", what `<input type="email">` accepts: `o'brien@example.com` included. */
export const BROWSER_EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

export { MESSAGES, type MessageCode } from '~/ledger'

/** What a field's value is once valid: a choice is one of the subjects. */
type FieldOutput<F extends ContactField> = (typeof ENQUIRY_FIELDS)[F]['kind'] extends 'choice' ? Subject : string
type FieldSchemas = { [F in ContactField]: v.GenericSchema<unknown, FieldOutput<F>> }

/** The message when the field is missing altogether, or not a string. */
const missing = (rule: FieldRule) => rule.messages.required ?? rule.messages.invalid ?? ''

/** One field's checks, by its kind, in the order their messages take precedence. */
function fieldSchema(rule: FieldRule): v.GenericSchema<unknown, string> {
  const { messages } = rule
  if (rule.kind === 'choice') return v.picklist(SUBJECT_VALUES, messages.required)
  const steps: v.PipeItem<string, string, v.BaseIssue<unknown>>[] = []
  // Browsers post a textarea's line breaks as CRLF; the message keeps plain line feeds.
  if (rule.kind === 'long-text') steps.push(v.transform((s: string) => s.replace(/\r\n?/g, '\n')))
  steps.push(v.trim())
  if (rule.required) steps.push(v.nonEmpty(messages.required))
  if (rule.max !== undefined)
    steps.push(
      rule.kind === 'email' ? v.maxLength(rule.max, messages.tooLong) : v.maxGraphemes(rule.max, messages.tooLong),
    )
  if (rule.maxBytes !== undefined) steps.push(v.maxBytes(rule.maxBytes, messages.tooLong))
  if (rule.kind === 'email') steps.push(v.regex(BROWSER_EMAIL_PATTERN, messages.invalid))
  if (rule.kind === 'text' || rule.kind === 'tel')
    steps.push(v.check((s: string) => !SINGLE_LINE_FORBIDDEN.test(s), messages.invalid))
  if (rule.kind === 'long-text')
    steps.push(v.check((s: string) => !MESSAGE_CONTROL_CHARACTERS.test(s), messages.invalid))
  const schema = v.pipe(v.string(missing(rule)), ...steps)
  return rule.required ? schema : v.optional(schema, '')
}

export const contactSchema = v.object(
  Object.fromEntries(CONTACT_FIELDS.map((field) => [field, fieldSchema(ENQUIRY_FIELDS[field])])) as FieldSchemas,
)

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

/** Unlisted keys and a malformed idempotency key are dropped: refusing would lose the enquiry. */
export const enquiryInputSchema = v.object({
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

export type EnquiryMessage = v.InferOutput<typeof contactSchema>
export type EnquiryInput = v.InferOutput<typeof enquiryInputSchema>
export type RawEnquiryInput = v.InferInput<typeof enquiryInputSchema>

export type FieldErrors = Partial<Record<ContactField, string>>

export type ValidationOutcome = { success: true; output: EnquiryMessage } | { success: false; errors: FieldErrors }

function isContactField(key: unknown): key is ContactField {
  return typeof key === 'string' && (CONTACT_FIELDS as readonly string[]).includes(key)
}

/** The first message for each field (issues about other keys are left out). */
export function fieldErrorsFrom(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) {
    const step = issue.path?.[0]
    const key = step?.key
    if (!isContactField(key)) continue
    const missingKey = step?.type === 'object' && step.origin === 'key'
    errors[key] ??= missingKey ? missing(ENQUIRY_FIELDS[key]) : issue.message
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
export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value)
}

export function messageCode(message: string): MessageCode | undefined {
  return (Object.keys(MESSAGES) as MessageCode[]).find((code) => MESSAGES[code] === message)
}
