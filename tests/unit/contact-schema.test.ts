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
