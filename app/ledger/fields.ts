/** The enquiry's fields, each declared once: everything else derives from this table (docs/architecture.md, "Adding a field").
 * No imports, so plain Node loads it (`npm run enquiries`). */

/** One-line kinds are a line of the e-mails; `choice` shows its label; `long-text` is the message, last. */
export type FieldKind = 'text' | 'email' | 'tel' | 'choice' | 'long-text'

export interface FieldRule {
  /** The form's label; a required field's gets ` *`. */
  label: string
  /** What the e-mails, the printed record and the desk call it, and the CSV's column unless `csv` says. */
  heading: string
  csv?: string
  /** Its `enquiries` column (a migration adds it). */
  column: string
  /** Found by the desk's search box. */
  searched?: boolean
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
    heading: 'Name',
    column: 'name',
    searched: true,
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
    heading: 'Email',
    csv: 'E-mail',
    column: 'email',
    searched: true,
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
    heading: 'Company',
    column: 'company',
    searched: true,
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
    heading: 'Subject',
    column: 'subject',
    kind: 'choice',
    required: true,
    width: 'half',
    placeholder: 'Select a subject',
    messages: { required: 'Please choose a subject.' },
  },
  message: {
    label: 'Message',
    heading: 'Message',
    column: 'message',
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

/** The one-line fields, in order: a line each in the e-mails and the printed record. */
const ONE_LINE: ReadonlySet<FieldKind> = new Set(['text', 'email', 'tel'])
export const LINE_FIELDS = CONTACT_FIELDS.filter((field) => ONE_LINE.has(ENQUIRY_FIELDS[field].kind))

/** The fields' `enquiries` columns, in order, for a statement's column list. */
export const FIELD_COLUMNS = CONTACT_FIELDS.map((field) => ENQUIRY_FIELDS[field].column)

export const EMPTY_VALUES = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, ''])) as ContactValues

/** Each field's value from `source` (a form's, an enquiry's), `''` where it has no string. */
export function pickValues(source: object): ContactValues {
  const values = { ...EMPTY_VALUES }
  for (const field of CONTACT_FIELDS) {
    const value = (source as Partial<Record<string, unknown>>)[field]
    if (typeof value === 'string') values[field] = value
  }
  return values
}

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
