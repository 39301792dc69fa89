// The contact form's schema, field by field: what each takes and refuses, and the messages it gives.
// Its e-mail check is a browser's type="email" check; byte caps stand beside the character caps. What
// the server function accepts: unknown keys dropped, the idempotency key checked, the honeypot carried.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN, newIdempotencyKey } from '~/contact/fields'
import {
  BROWSER_EMAIL_PATTERN,
  BYTE_LIMITS,
  enquiryInputSchema,
  fieldErrorsFrom,
  firstInvalidField,
  LIMITS,
  MESSAGES,
  validateContact,
} from '~/contact/schema'
import { SUBJECT_VALUES } from '~/content/subjects'
import { CONTACT_FIELDS } from '~/ledger'

const valid = {
  name: 'Ravi Kumar',
  email: 'ravi@example.com',
  company: 'Godavari Foods',
  subject: 'devops',
  message: 'We would like to move our deployments to Kubernetes.',
}

/** The errors the schema gives for a fill, by field. */
function errorsFor(values: Record<string, unknown>) {
  const result = validateContact(values)
  return result.success ? {} : result.errors
}

describe('contact schema', () => {
  it('accepts a complete message and returns it unchanged', () => {
    const result = validateContact(valid)
    expect(result).toEqual({ success: true, output: valid })
  })

  it('trims every text field', () => {
    const result = validateContact({
      name: '  Ravi Kumar \t',
      email: ' ravi@example.com\n',
      company: '  Godavari Foods  ',
      subject: 'devops',
      message: '\n  Hello there.  \n\n',
    })
    expect(result.success && result.output).toEqual({
      name: 'Ravi Kumar',
      email: 'ravi@example.com',
      company: 'Godavari Foods',
      subject: 'devops',
      message: 'Hello there.',
    })
  })

  it('keeps line breaks inside the message, as line feeds (and the separators a pasted text may have)', () => {
    const result = validateContact({ ...valid, message: 'First line\nSecond line\r\n\tindented\rlast\u2028end' })
    expect(result.success && result.output.message).toBe('First line\nSecond line\n\tindented\nlast\u2028end')
  })

  const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.in`
  // Line and paragraph separators, bidi overrides, isolates and marks, NEXT LINE.
  const separators = ['\u2028', '\u2029', '\u202E', '\u2066', '\u200F', '\u0085']
  // Each field's value, and the message it gets (undefined: accepted). Characters are counted as
  // people see them: an emoji with its skin tone, or e + U+0301, is one.
  const CASES: [field: keyof typeof valid, value: unknown, message: string | undefined][] = [
    ['name', '', MESSAGES.nameRequired],
    ['name', '   \t ', MESSAGES.nameRequired],
    ['name', undefined, MESSAGES.nameRequired],
    ['name', 42, MESSAGES.nameRequired],
    ['name', ['Ravi'], MESSAGES.nameRequired],
    ['name', 'A', undefined],
    ['name', 'a'.repeat(LIMITS.name), undefined],
    ['name', 'a'.repeat(LIMITS.name + 1), MESSAGES.nameTooLong],
    ['name', 'శ్రీనివాస్ రావు', undefined],
    ['name', 'Zoë Ñúñez-Łukasz', undefined],
    ['name', '👍🏽'.repeat(100), undefined],
    ['name', '👍🏽'.repeat(101), MESSAGES.nameTooLong],
    ['name', 'e\u0301'.repeat(100), undefined],
    ['name', 'Ravi\r\nBcc: x@example.com', MESSAGES.nameInvalid],
    ['name', 'Ra\u0000vi', MESSAGES.nameInvalid],
    ...separators.flatMap((char): [keyof typeof valid, string, string][] => [
      ['name', `Ravi${char}Kumar`, MESSAGES.nameInvalid],
      ['company', `ACME${char}evil.exe`, MESSAGES.companyInvalid],
    ]),
    ['email', '', MESSAGES.emailRequired],
    ['email', '  ', MESSAGES.emailRequired],
    ['email', 'ravi@example.com\r\nBcc: all@example.com', MESSAGES.emailInvalid],
    ['email', at254, undefined],
    ['email', `a${at254}`, MESSAGES.emailTooLong],
    ['company', 'c'.repeat(LIMITS.company), undefined],
    ['company', 'c'.repeat(LIMITS.company + 1), MESSAGES.companyTooLong],
    ['company', 'ACME\nInjected', MESSAGES.companyInvalid],
    ...SUBJECT_VALUES.map((subject) => ['subject', subject, undefined] as [keyof typeof valid, string, undefined]),
    ...['', ' devops', 'DevOps', 'sales', undefined, 3].map(
      (subject) => ['subject', subject, MESSAGES.subjectRequired] as [keyof typeof valid, unknown, string],
    ),
    ['message', '', MESSAGES.messageRequired],
    ['message', '\n\n  \t', MESSAGES.messageRequired],
    ['message', '.', undefined],
    ['message', 'm'.repeat(LIMITS.message), undefined],
    ['message', 'm'.repeat(LIMITS.message + 1), MESSAGES.messageTooLong],
    ['message', `  ${'m'.repeat(LIMITS.message)}  `, undefined],
    ['message', 'న'.repeat(LIMITS.message), undefined],
    ['message', '😀'.repeat(LIMITS.message), undefined],
    ['message', '😀'.repeat(LIMITS.message + 1), MESSAGES.messageTooLong],
    ['message', 'Hello\u0000', MESSAGES.messageInvalid],
    ['message', 'Hello\u001b[31m', MESSAGES.messageInvalid],
  ]

  for (const [field, value, message] of CASES)
    it(`${field} ${JSON.stringify(value)?.slice(0, 40)}: ${message ?? 'accepted'}`, () => {
      expect(errorsFor({ ...valid, [field]: value })[field]).toBe(message)
    })

  it('has the five subjects; a missing or blank company becomes an empty string', () => {
    expect(SUBJECT_VALUES).toEqual(['devops', 'website', 'automation', 'voice-ai', 'general'])
    const { company: _omit, ...withoutCompany } = valid
    const missing = validateContact(withoutCompany)
    expect(missing.success && missing.output.company).toBe('')
    const blank = validateContact({ ...valid, company: '   ' })
    expect(blank.success && blank.output.company).toBe('')
  })

  it('reports every invalid field at once, and the first in form order', () => {
    const errors = errorsFor({ name: '', email: 'x', company: '', subject: '', message: '' })
    expect(Object.keys(errors)).toEqual(['name', 'email', 'subject', 'message'])
    expect(firstInvalidField(errors)).toBe('name')
    expect(firstInvalidField({ message: 'x', subject: 'y' })).toBe('subject')
    expect(firstInvalidField({})).toBeUndefined()
  })

  it('refuses something that is not an object without naming a field', () => {
    for (const input of [undefined, null, 'name=Ravi', 42]) {
      const result = v.safeParse(enquiryInputSchema, input)
      expect(result.success).toBe(false)
      if (!result.success) expect(fieldErrorsFrom(result.issues)).toEqual({})
    }
  })
})

it('missing fields say what is needed, as when they are empty', () => {
  expect(errorsFor({})).toEqual({
    name: MESSAGES.nameRequired,
    email: MESSAGES.emailRequired,
    subject: MESSAGES.subjectRequired,
    message: MESSAGES.messageRequired,
  })
})

describe('email, as a browser’s type="email" checks it', () => {
  const ACCEPTED = [
    "o'brien@example.com",
    'first.last+tag@example.co.in',
    'user@localhost',
    'a.b-c_d@sub.example.com',
    'x@1.2.3.4',
    'a..b@example.com',
    '.dot@example.com',
    "!#$%&'*+/=?^_`{|}~-@example.com",
    'USER@EXAMPLE.COM',
    `user@${'a'.repeat(63)}.com`,
  ]
  const REFUSED = [
    'plainaddress',
    '@example.com',
    'user@',
    'user@-example.com',
    'user@example-.com',
    'user@example..com',
    'user@.example.com',
    'user@example.com.',
    'user name@example.com',
    'user@exa mple.com',
    'üser@example.com',
    'user@exämple.com',
    '"quoted"@example.com',
    'user@[192.0.2.1]',
    'user@@example.com',
    'user@example.com\nBcc: victim@example.com',
    'user@example.com,other@example.com',
    `user@${'a'.repeat(64)}.com`,
  ]

  it.each([...ACCEPTED.map((email) => [email, true] as const), ...REFUSED.map((email) => [email, false] as const)])(
    '%j: the browser accepts it: %s, and so does the schema',
    (email, accepted) => {
      expect(BROWSER_EMAIL_PATTERN.test(email)).toBe(accepted)
      expect(errorsFor({ ...valid, email }).email).toBe(accepted ? undefined : MESSAGES.emailInvalid)
    },
  )

  it('takes "user@example.com\\n" as the browser does: the line feed is stripped, never kept', () => {
    // The pattern alone refuses it (`$` never matches before a final line feed); a browser strips
    // line breaks and surrounding spaces before its check, and the schema trims first the same way.
    expect(BROWSER_EMAIL_PATTERN.test('user@example.com\n')).toBe(false)
    const result = validateContact({ ...valid, email: 'user@example.com\n' })
    expect(result.success && result.output.email).toBe('user@example.com')
  })
})

describe('byte caps beside the character caps', () => {
  const encoder = new TextEncoder()
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  const graphemes = (s: string) => [...segmenter.segment(s)].length

  it('refuse a 100-character name or company stuffed with combining marks', () => {
    const zalgo = `a${'\u0301'.repeat(40)}`.repeat(100)
    expect(graphemes(zalgo)).toBe(100)
    expect(encoder.encode(zalgo).byteLength).toBeGreaterThan(BYTE_LIMITS.name)
    expect(errorsFor({ ...valid, name: zalgo }).name).toBe(MESSAGES.nameTooLong)
    expect(errorsFor({ ...valid, company: zalgo }).company).toBe(MESSAGES.companyTooLong)
  })

  it('accept a 100-character name or company in Devanagari', () => {
    const hundred = [...segmenter.segment('क्षि'.repeat(100))]
      .slice(0, 100)
      .map((s) => s.segment)
      .join('')
    expect(graphemes(hundred)).toBe(100)
    expect(encoder.encode(hundred).byteLength).toBeLessThanOrEqual(BYTE_LIMITS.name)
    expect(errorsFor({ ...valid, name: hundred }).name).toBeUndefined()
    expect(errorsFor({ ...valid, company: hundred }).company).toBeUndefined()
  })

  it('cap the message at 24,000 bytes', () => {
    const heavy = `e${'\u0301'.repeat(10)}`.repeat(2000)
    expect(graphemes(heavy)).toBe(2000)
    expect(errorsFor({ ...valid, message: heavy }).message).toBe(MESSAGES.messageTooLong)
  })
})

describe('what the server accepts', () => {
  it('drops an access_key and other unknown keys sent by a client', () => {
    const result = v.safeParse(enquiryInputSchema, {
      ...valid,
      access_key: 'client-supplied',
      __proto__: { polluted: true },
      extra: 1,
    })
    expect(result.success).toBe(true)
    if (result.success) {
      expect(result.output).not.toHaveProperty('access_key')
      expect(result.output).not.toHaveProperty('extra')
      expect(Object.keys(result.output).sort()).toEqual([...CONTACT_FIELDS, 'website'].sort())
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('passes a well-formed idempotency key through, drops a malformed one, and refuses a non-string', () => {
    const key = newIdempotencyKey()
    expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN)
    const parsed = v.safeParse(enquiryInputSchema, { ...valid, [IDEMPOTENCY_KEY_FIELD]: key })
    expect(parsed.success && parsed.output.enquiry_key).toBe(key)
    for (const malformed of [
      'short',
      'has spaces in it 0123456789',
      'ü'.repeat(20),
      'x'.repeat(65),
      'x'.repeat(200),
      'x'.repeat(5000),
    ]) {
      const result = v.safeParse(enquiryInputSchema, { ...valid, [IDEMPOTENCY_KEY_FIELD]: malformed })
      expect(result.success, malformed).toBe(true)
      expect(result.success && result.output.enquiry_key, malformed).toBeUndefined()
    }
    const absent = v.safeParse(enquiryInputSchema, valid)
    expect(absent.success && absent.output.enquiry_key).toBeUndefined()
    // Not text at all: refused as a whole (no form sends that).
    for (const notText of [42, ['k'.repeat(22)], { key: 'k'.repeat(22) }, null]) {
      const result = v.safeParse(enquiryInputSchema, { ...valid, [IDEMPOTENCY_KEY_FIELD]: notText })
      expect(result.success, JSON.stringify(notText)).toBe(false)
      if (!result.success) expect(fieldErrorsFrom(result.issues)).toEqual({})
    }
  })

  it('makes keys that differ each time', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey))
    expect(keys.size).toBe(100)
  })

  it('carries the honeypot, empty by default', () => {
    const result = v.safeParse(enquiryInputSchema, valid)
    expect(result.success && result.output.website).toBe('')
    const filled = v.safeParse(enquiryInputSchema, { ...valid, website: 'http://spam.example' })
    expect(filled.success && filled.output.website).toBe('http://spam.example')
  })
})
