// The form's e-mail check matches a browser's type="email" check: what one accepts, the other does.
import { describe, expect, it } from 'vitest'
import { BROWSER_EMAIL_PATTERN, MESSAGES, validateContact } from '~/contact/schema'
import { errorsFor, valid } from '../support/contact-values'

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
