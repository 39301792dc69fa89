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

  it('keeps line breaks inside the message, as line feeds', () => {
    const result = validateContact({ ...valid, message: 'First line\nSecond line\r\n\tindented\rlast' })
    expect(result.success && result.output.message).toBe('First line\nSecond line\n\tindented\nlast')
  })

  describe('name', () => {
    it('is required, and whitespace alone does not count', () => {
      expect(errorsFor({ ...valid, name: '' }).name).toBe(MESSAGES.nameRequired)
      expect(errorsFor({ ...valid, name: '   \t ' }).name).toBe(MESSAGES.nameRequired)
      expect(errorsFor({ ...valid, name: undefined }).name).toBe(MESSAGES.nameRequired)
    })

    it('takes 1 to 100 characters', () => {
      expect(errorsFor({ ...valid, name: 'A' }).name).toBeUndefined()
      expect(errorsFor({ ...valid, name: 'a'.repeat(LIMITS.name) }).name).toBeUndefined()
      expect(errorsFor({ ...valid, name: 'a'.repeat(LIMITS.name + 1) }).name).toBe(MESSAGES.nameTooLong)
    })

    it('counts characters as people see them, in any script', () => {
      expect(errorsFor({ ...valid, name: 'శ్రీనివాస్ రావు' }).name).toBeUndefined()
      expect(errorsFor({ ...valid, name: 'Zoë Ñúñez-Łukasz' }).name).toBeUndefined()
      // 100 emoji with skin tone: 400 UTF-16 units, 100 characters.
      expect(errorsFor({ ...valid, name: '👍🏽'.repeat(100) }).name).toBeUndefined()
      expect(errorsFor({ ...valid, name: '👍🏽'.repeat(101) }).name).toBe(MESSAGES.nameTooLong)
      // Combining marks belong to their letter: "é" written as e + U+0301.
      expect(errorsFor({ ...valid, name: 'e\u0301'.repeat(100) }).name).toBeUndefined()
    })

    it('refuses line breaks and control characters', () => {
      expect(errorsFor({ ...valid, name: 'Ravi\r\nBcc: x@example.com' }).name).toBe(MESSAGES.nameInvalid)
      expect(errorsFor({ ...valid, name: 'Ra\u0000vi' }).name).toBe(MESSAGES.nameInvalid)
    })

    it('refuses values that are not text', () => {
      expect(errorsFor({ ...valid, name: 42 }).name).toBe(MESSAGES.nameRequired)
      expect(errorsFor({ ...valid, name: ['Ravi'] }).name).toBe(MESSAGES.nameRequired)
    })
  })

  describe('email', () => {
    it('is required', () => {
      expect(errorsFor({ ...valid, email: '' }).email).toBe(MESSAGES.emailRequired)
      expect(errorsFor({ ...valid, email: '  ' }).email).toBe(MESSAGES.emailRequired)
    })

    it('must look like an address', () => {
      for (const email of [
        'ravi',
        'ravi@',
        '@example.com',
        'ravi@example.',
        'ravi @example.com',
        'ravi@@example.com',
      ]) {
        expect(errorsFor({ ...valid, email }).email, email).toBe(MESSAGES.emailInvalid)
      }
      for (const email of ['r@example.in', 'ravi.kumar+leads@mail.example.co.in', 'R_K-1@EXAMPLE.COM']) {
        expect(errorsFor({ ...valid, email }).email, email).toBeUndefined()
      }
    })

    it('refuses header injection through the address', () => {
      expect(errorsFor({ ...valid, email: 'ravi@example.com\r\nBcc: all@example.com' }).email).toBe(
        MESSAGES.emailInvalid,
      )
      expect(errorsFor({ ...valid, email: 'ravi@example.com, other@example.com' }).email).toBe(MESSAGES.emailInvalid)
    })

    it('takes at most 254 characters', () => {
      const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.in`
      expect(at254).toHaveLength(254)
      expect(errorsFor({ ...valid, email: at254 }).email).toBeUndefined()
      expect(errorsFor({ ...valid, email: `a${at254}` }).email).toBe(MESSAGES.emailTooLong)
    })
  })

  describe('email, as a browser’s type="email" checks it', () => {
    const VALID = [
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
    const INVALID = [
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

    for (const email of VALID) {
      it(`accepts ${JSON.stringify(email)}, as the browser does`, () => {
        expect(BROWSER_EMAIL_PATTERN.test(email)).toBe(true)
        expect(errorsFor({ ...valid, email }).email).toBeUndefined()
      })
    }
    for (const email of INVALID) {
      it(`refuses ${JSON.stringify(email)}, as the browser does`, () => {
        expect(BROWSER_EMAIL_PATTERN.test(email)).toBe(false)
        expect(errorsFor({ ...valid, email }).email).toBe(MESSAGES.emailInvalid)
      })
    }

    it('takes "user@example.com\\n" as the browser does: the line feed is stripped, never kept', () => {
      // The pattern alone refuses it (in JavaScript `$` never matches before a final line feed); a
      // browser strips line breaks and surrounding spaces from an e-mail input's value before its
      // check, and the schema trims first the same way, so the stored address has no line feed.
      expect(BROWSER_EMAIL_PATTERN.test('user@example.com\n')).toBe(false)
      expect(BROWSER_EMAIL_PATTERN.test('user@example.com')).toBe(true)
      const result = validateContact({ ...valid, email: 'user@example.com\n' })
      expect(result.success && result.output.email).toBe('user@example.com')
    })
  })

  describe('single-line fields', () => {
    const separators: [string, string][] = [
      ['U+2028 LINE SEPARATOR', '\u2028'],
      ['U+2029 PARAGRAPH SEPARATOR', '\u2029'],
      ['U+202E RIGHT-TO-LEFT OVERRIDE', '\u202E'],
      ['U+2066 LEFT-TO-RIGHT ISOLATE', '\u2066'],
      ['U+200F RIGHT-TO-LEFT MARK', '\u200F'],
      ['U+0085 NEXT LINE', '\u0085'],
    ]
    for (const [what, char] of separators) {
      it(`refuse ${what} in the name and the company`, () => {
        expect(errorsFor({ ...valid, name: `Ravi${char}Kumar` }).name).toBe(MESSAGES.nameInvalid)
        expect(errorsFor({ ...valid, company: `ACME${char}evil.exe` }).company).toBe(MESSAGES.companyInvalid)
      })
    }

    it('leave the message free to hold line feeds (and the separators a pasted text may have)', () => {
      const result = validateContact({ ...valid, message: 'Line one\nLine two\u2028Line three' })
      expect(result.success && result.output.message).toBe('Line one\nLine two\u2028Line three')
    })
  })

  describe('byte caps beside the character caps', () => {
    const encoder = new TextEncoder()
    const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length

    it('refuse a 100-character name stuffed with combining marks', () => {
      const zalgo = `a${'\u0301'.repeat(40)}`.repeat(100)
      expect(graphemes(zalgo)).toBe(100)
      expect(encoder.encode(zalgo).byteLength).toBeGreaterThan(BYTE_LIMITS.name)
      expect(errorsFor({ ...valid, name: zalgo }).name).toBe(MESSAGES.nameTooLong)
      expect(errorsFor({ ...valid, company: zalgo }).company).toBe(MESSAGES.companyTooLong)
    })

    it('accept a 100-character name in Devanagari', () => {
      const name = 'क्षि'.repeat(100)
      const count = graphemes(name)
      const padded = count < 100 ? `${name}${'क'.repeat(100 - count)}` : name
      expect(graphemes(padded)).toBeGreaterThanOrEqual(100)
      const hundred = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(padded)]
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

  describe('company', () => {
    it('is optional: missing or blank becomes an empty string', () => {
      const { company: _omit, ...withoutCompany } = valid
      const missing = validateContact(withoutCompany)
      expect(missing.success && missing.output.company).toBe('')
      const blank = validateContact({ ...valid, company: '   ' })
      expect(blank.success && blank.output.company).toBe('')
    })

    it('takes at most 100 characters', () => {
      expect(errorsFor({ ...valid, company: 'c'.repeat(LIMITS.company) }).company).toBeUndefined()
      expect(errorsFor({ ...valid, company: 'c'.repeat(LIMITS.company + 1) }).company).toBe(MESSAGES.companyTooLong)
    })

    it('refuses line breaks', () => {
      expect(errorsFor({ ...valid, company: 'ACME\nInjected' }).company).toBe(MESSAGES.companyInvalid)
    })
  })

  describe('subject', () => {
    it('is one of the five subjects', () => {
      expect(SUBJECT_VALUES).toEqual(['devops', 'website', 'automation', 'voice-ai', 'general'])
      for (const subject of SUBJECT_VALUES) expect(errorsFor({ ...valid, subject }).subject).toBeUndefined()
    })

    it('is required, and nothing else is accepted', () => {
      for (const subject of ['', ' devops', 'DevOps', 'sales', undefined, 3]) {
        expect(errorsFor({ ...valid, subject }).subject, String(subject)).toBe(MESSAGES.subjectRequired)
      }
    })
  })

  describe('message', () => {
    it('is required', () => {
      expect(errorsFor({ ...valid, message: '' }).message).toBe(MESSAGES.messageRequired)
      expect(errorsFor({ ...valid, message: '\n\n  \t' }).message).toBe(MESSAGES.messageRequired)
    })

    it('takes 1 to 5000 characters', () => {
      expect(errorsFor({ ...valid, message: '.' }).message).toBeUndefined()
      expect(errorsFor({ ...valid, message: 'm'.repeat(LIMITS.message) }).message).toBeUndefined()
      expect(errorsFor({ ...valid, message: 'm'.repeat(LIMITS.message + 1) }).message).toBe(MESSAGES.messageTooLong)
      expect(errorsFor({ ...valid, message: `  ${'m'.repeat(LIMITS.message)}  ` }).message).toBeUndefined()
    })

    it('counts characters in any script', () => {
      expect(errorsFor({ ...valid, message: 'న'.repeat(LIMITS.message) }).message).toBeUndefined()
      expect(errorsFor({ ...valid, message: '😀'.repeat(LIMITS.message) }).message).toBeUndefined()
      expect(errorsFor({ ...valid, message: '😀'.repeat(LIMITS.message + 1) }).message).toBe(MESSAGES.messageTooLong)
    })

    it('refuses control characters other than tabs and line breaks', () => {
      expect(errorsFor({ ...valid, message: 'Hello\u0000' }).message).toBe(MESSAGES.messageInvalid)
      expect(errorsFor({ ...valid, message: 'Hello\u001b[31m' }).message).toBe(MESSAGES.messageInvalid)
    })
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
})

describe('missing fields', () => {
  it('say what is needed, as when they are empty', () => {
    expect(errorsFor({})).toEqual({
      name: MESSAGES.nameRequired,
      email: MESSAGES.emailRequired,
      subject: MESSAGES.subjectRequired,
      message: MESSAGES.messageRequired,
    })
  })
})
