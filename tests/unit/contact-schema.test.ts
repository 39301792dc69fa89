// The contact form's schema, field by field: what each takes and refuses, and the messages it gives.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  enquiryInputSchema,
  fieldErrorsFrom,
  firstInvalidField,
  LIMITS,
  MESSAGES,
  validateContact,
} from '~/contact/schema'
import { SUBJECT_VALUES } from '~/content/subjects'
import { errorsFor, valid } from '../support/contact-values'

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

  const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.in`
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
    ['email', '', MESSAGES.emailRequired],
    ['email', '  ', MESSAGES.emailRequired],
    ...['ravi', 'ravi@', '@example.com', 'ravi@example.', 'ravi @example.com', 'ravi@@example.com'].map(
      (email) => ['email', email, MESSAGES.emailInvalid] as [keyof typeof valid, string, string],
    ),
    ['email', 'r@example.in', undefined],
    ['email', 'ravi.kumar+leads@mail.example.co.in', undefined],
    ['email', 'R_K-1@EXAMPLE.COM', undefined],
    ['email', 'ravi@example.com\r\nBcc: all@example.com', MESSAGES.emailInvalid],
    ['email', 'ravi@example.com, other@example.com', MESSAGES.emailInvalid],
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
