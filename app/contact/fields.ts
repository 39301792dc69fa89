/**
 * The enquiry's fields, each declared once: what the form shows and checks. Everything else is
 * derived from this table: the valibot schema (`schema.ts`), the form's inputs (`ContactForm`),
 * the no-JavaScript outcome cookie, the draft, and, through the server's table keyed by the same
 * names (`ledger/enquiry-fields.ts`), the stored columns, the CSV, the e-mails, the webhook
 * payload and the desk. No valibot here; the form's code and the server load it, never a page's
 * first load (that has `enquiry-key.ts` and `draft.ts`).
 */

/** `text` and `email` are one line; `choice` is the subjects' select; `long-text` a textarea. */
export type FieldKind = 'text' | 'email' | 'choice' | 'long-text'

export interface FieldRule {
  /** The form's label; a required field's gets ` *`. */
  label: string
  kind: FieldKind
  required: boolean
  /** At most this many characters (graphemes), and `maxBytes` of UTF-8 where marks could swell it. */
  max?: number
  maxBytes?: number
  autoComplete?: string
  /** Two `half` fields in a row share a line from 640 px. */
  width: 'half' | 'full'
  /** A choice's first, empty option. */
  placeholder?: string
  /** A long text's height in lines. */
  rows?: number
  /** The words a visitor sees when it is wrong, in the spec's voice; their codes travel in the no-JS cookie. */
  messages: { required?: string; invalid?: string; tooLong?: string }
}

export const ENQUIRY_FIELDS = {
  name: {
    label: 'Full Name',
    kind: 'text',
    required: true,
    max: 100,
    maxBytes: 1200,
    autoComplete: 'name',
    width: 'half',
    messages: {
      required: 'Please enter your name.',
      tooLong: 'Please use at most 100 characters for your name.',
      invalid: 'Please remove line breaks and special control characters from your name.',
    },
  },
  email: {
    label: 'Email Address',
    kind: 'email',
    required: true,
    max: 254,
    autoComplete: 'email',
    width: 'half',
    messages: {
      required: 'Please enter your email address.',
      invalid: 'Please enter a valid email address, like name@example.com.',
      tooLong: 'Email addresses can be at most 254 characters.',
    },
  },
  company: {
    label: 'Company Name',
    kind: 'text',
    required: false,
    max: 100,
    maxBytes: 1200,
    autoComplete: 'organization',
    width: 'half',
    messages: {
      tooLong: 'Please use at most 100 characters for the company name.',
      invalid: 'Please remove line breaks and special control characters from the company name.',
    },
  },
  subject: {
    label: 'Subject',
    kind: 'choice',
    required: true,
    width: 'half',
    placeholder: 'Select a subject',
    messages: { required: 'Please choose a subject.' },
  },
  message: {
    label: 'Message',
    kind: 'long-text',
    required: true,
    max: 5000,
    maxBytes: 24_000,
    width: 'full',
    rows: 6,
    messages: {
      required: 'Please write a message.',
      tooLong: 'Please keep your message to at most 5000 characters.',
      invalid: 'Please remove special control characters from your message.',
    },
  },
} as const satisfies Record<string, FieldRule>

export type ContactField = keyof typeof ENQUIRY_FIELDS

/** In the form's order. */
export const CONTACT_FIELDS = Object.keys(ENQUIRY_FIELDS) as ContactField[]

export type ContactValues = Record<ContactField, string>

export const EMPTY_VALUES = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, ''])) as ContactValues

/** A message's code: the field and the kind of fault, `nameRequired`, `emailInvalid`, … */
export type MessageCode = {
  [F in ContactField]: `${F}${Capitalize<keyof (typeof ENQUIRY_FIELDS)[F]['messages'] & string>}`
}[ContactField]

export const MESSAGES = Object.fromEntries(
  CONTACT_FIELDS.flatMap((field) =>
    Object.entries(ENQUIRY_FIELDS[field].messages).map(([fault, text]) => [
      `${field}${fault[0]?.toUpperCase()}${fault.slice(1)}`,
      text,
    ]),
  ),
) as Record<MessageCode, string>

/** Hidden from people and assistive technology: only bots fill it in. */
export const HONEYPOT_FIELD = 'website'

export { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN, newIdempotencyKey } from './enquiry-key'
