// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { email, enquiryEmail as enquiryMail, sendEnquiryEmail } from '~/contact/deliveries/email.server'
import type { Enquiry } from '~/ledger'
import { EMPTY_VALUES } from '~/ledger'
import { buildPlainTextEmail, encodeWords, isPlainAddress, singleLine } from '~/notices/message'
import { site } from '~/site'
import { contactEnv, FakeEmailMessage, fakeEmailBinding } from '../support/fake-env'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

const enquiryEmail = (...args: Parameters<typeof enquiryMail>) => buildPlainTextEmail(enquiryMail(...args))

const enquiry: Enquiry = {
  ...EMPTY_VALUES,
  id: '2026-03-04T05:06:07.890Z-a1b2c3d4e5f6',
  receivedAt: '2026-03-04T05:06:07.890Z',
  name: 'Ravi Kumar',
  email: 'ravi@example.com',
  company: 'Godavari Foods',
  subject: 'devops',
  subjectLabel: 'DevOps & Cloud Automation',
  message: 'Line one.\nLine two.',
}

/** Decodes RFC 2047 encoded words (B encoding, UTF-8), as a mail client shows a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))
}

const mail = (parts: Partial<Parameters<typeof buildPlainTextEmail>[0]>) =>
  buildPlainTextEmail({
    ...{ from: { address: 'website@aksharalabs.in' }, to: { address: 'hello@aksharalabs.in' } },
    ...{ replyTo: { address: 'ravi@example.com' }, subject: 's', text: 't', date: new Date(0), messageId: 'x' },
    ...parts,
  })
const FROM = 'website@aksharalabs.in'
const withBinding = (binding: unknown, sender = FROM) =>
  contactEnv({ CONTACT_EMAIL: binding, CONTACT_EMAIL_FROM: sender })

/** A strict reading of the message: CRLF only, unfolded headers, base64 body. */
function parse(raw: string) {
  expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
  const end = raw.indexOf('\r\n\r\n')
  expect(end).toBeGreaterThan(0)
  const head = raw.slice(0, end)
  const rawBody = raw.slice(end + 4)
  const headerLines = head.split('\r\n')
  const headers = new Map<string, string>()
  let current = ''
  for (const line of headerLines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      current += line
      const name = [...headers.keys()].pop() as string
      headers.set(name, current)
    } else {
      const colon = line.indexOf(':')
      expect(colon, line).toBeGreaterThan(0)
      const name = line.slice(0, colon).toLowerCase()
      expect(headers.has(name), `duplicate header ${name}`).toBe(false)
      current = line.slice(colon + 1).trim()
      headers.set(name, current)
    }
  }
  for (const line of rawBody.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76)
  const body = Buffer.from(rawBody.replace(/\r\n/g, ''), 'base64').toString('utf8')
  return { headerLines, headers, body }
}

describe('the e-mail message builder', () => {
  it('writes a complete RFC 5322 message with CRLF line endings', () => {
    const { headers, body } = parse(enquiryEmail(enquiry, FROM))
    expect(headers.get('from')).toBe('"Akshara Labs website" <website@aksharalabs.in>')
    expect(headers.get('to')).toBe(`"${site.name}" <${site.email}>`)
    expect(headers.get('reply-to')).toBe('"Ravi Kumar" <ravi@example.com>')
    expect(headers.get('date')).toBe('Wed, 04 Mar 2026 05:06:07 +0000')
    expect(headers.get('message-id')).toBe('<enquiry.2026-03-04T050607.890Z-a1b2c3d4e5f6@aksharalabs.in>')
    expect(headers.get('mime-version')).toBe('1.0')
    expect(headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(headers.get('content-transfer-encoding')).toBe('base64')
    expect(decodeWords(headers.get('subject') ?? '')).toBe('New enquiry: DevOps & Cloud Automation — Ravi Kumar')
    for (const line of [
      'Name:     Ravi Kumar',
      'Email:    ravi@example.com',
      'Company:  Godavari Foods',
      'Subject:  DevOps & Cloud Automation (devops)',
      'Received: 2026-03-04T05:06:07.890Z',
      'Message:\r\nLine one.\r\nLine two.',
    ])
      expect(body).toContain(line)
  })

  it('encodes non-ASCII names and subjects as RFC 2047 words, never splitting a character', () => {
    const name = 'శ్రీనివాస్ రావు గారు 👋 Zoë'
    const { headers, headerLines } = parse(
      enquiryEmail({ ...enquiry, name, subjectLabel: 'Vaani AI Voice Assistant Inquiry' }, FROM),
    )
    expect(decodeWords(headers.get('subject') ?? '')).toBe(`New enquiry: Vaani AI Voice Assistant Inquiry — ${name}`)
    expect(decodeWords(headers.get('reply-to') ?? '')).toBe(`${name} <ravi@example.com>`)
    for (const line of headerLines) {
      expect(line).toMatch(/^[\x20-\x7e]*$/)
      expect(line.length).toBeLessThanOrEqual(78)
    }
    for (const word of encodeWords(name.repeat(3))) {
      expect(word.length).toBeLessThanOrEqual(75)
      const decoded = Buffer.from(word.slice(10, -2), 'base64')
      expect(new TextDecoder('utf-8', { fatal: true }).decode(decoded)).not.toContain('\uFFFD')
    }
  })

  it('keeps the whole message body, in any script, with long lines wrapped in base64', () => {
    const message = `${'నమస్కారం '.repeat(300)}\nEnd 👋`
    const { body } = parse(enquiryEmail({ ...enquiry, message }, FROM))
    expect(body).toContain(message.replace(/\n/g, '\r\n'))
  })

  describe('header injection', () => {
    it.each([
      'Ravi\r\nBcc: victim@example.com',
      'Ravi\nBcc: victim@example.com',
      'Ravi\rBcc: victim@example.com',
      'Ravi\u2028Bcc: victim@example.com',
      'Ravi\u0000\u0085Bcc: victim@example.com',
      'Ravi"\r\n\r\nInjected body',
    ])('cannot add a header through the name %j', (name) => {
      const replyTo = { address: 'ravi@example.com', name }
      const { headers, body } = parse(mail({ replyTo, subject: `New enquiry: General — ${name}`, text: 'Body' }))
      const names = 'from to reply-to subject date message-id mime-version content-type content-transfer-encoding'
      expect([...headers.keys()]).toEqual(names.split(' '))
      expect(body).toBe('Body')
      expect(decodeWords(headers.get('subject') ?? '')).not.toMatch(/[\r\n]/)
    })

    it('refuses an address that is not a plain address', () => {
      for (const address of ['ravi@example.com\r\nBcc: x@example.com', 'a@b.co, c@d.co', '"x"@example.com', 'x']) {
        expect(isPlainAddress(address)).toBe(false)
        expect(() => mail({ replyTo: { address } })).toThrow()
      }
    })

    it('escapes quotes and backslashes in ASCII names', () => {
      const raw = mail({ replyTo: { address: 'ravi@example.com', name: 'Ravi "The Boss" \\ Kumar' } })
      expect(parse(raw).headers.get('reply-to')).toBe('"Ravi \\"The Boss\\" \\\\ Kumar" <ravi@example.com>')
    })

    it('folds nothing into a header but spaces', () => {
      expect(singleLine('a\r\n b\tc\u0000d')).toBe('a b c d')
    })
  })
})

describe('the email delivery', () => {
  it('sends the enquiry to the company mailbox, from the configured sender, as a cloudflare:email message', async () => {
    const binding = fakeEmailBinding()
    expect((await email.deliver(enquiry, { env: withBinding(binding), requestId: 'r' })).ok).toBe(true)
    const [message] = binding.sent
    expect(message).toBeInstanceOf(FakeEmailMessage)
    expect(binding.sent).toEqual([expect.objectContaining({ from: FROM, to: site.email })])
    const { headers, body } = parse(message?.raw ?? '')
    expect(headers.get('reply-to')).toBe('"Ravi Kumar" <ravi@example.com>')
    expect(body).toContain('Line one.')
  })

  it('reports a refusal by the binding as a failure', async () => {
    const binding = fakeEmailBinding({ failing: true })
    const result = await sendEnquiryEmail(enquiry, withBinding(binding))
    expect(result).toMatchObject({ ok: false, cause: 'email_send_failed' })
  })

  it('needs the binding and a plain sender address', async () => {
    expect(email.missing(contactEnv({}))).toEqual(['CONTACT_EMAIL', 'CONTACT_EMAIL_FROM'])
    expect(email.missing(withBinding(fakeEmailBinding(), 'x\r\n@y.z'))).toEqual(['CONTACT_EMAIL_FROM'])
    expect(email.missing(withBinding(fakeEmailBinding()))).toEqual([])
    const unbound = await sendEnquiryEmail(enquiry, withBinding(undefined))
    expect(unbound).toMatchObject({ ok: false, cause: 'missing_email_binding' })
    const noSender = await sendEnquiryEmail(enquiry, withBinding(fakeEmailBinding(), 'nobody'))
    expect(noSender).toMatchObject({ ok: false, cause: 'invalid_sender' })
  })

  it.each<[string, string | undefined]>([
    ["o'brien@example.com", `"Ravi Kumar" <o'brien@example.com>`],
    // Browser-valid but not plain: still delivered, without Reply-To.
    ...['a..b@example.com', '.a@example.com', 'user@localhost', 'x@1.2.3.4'].map((address): [string, undefined] => [
      address,
      undefined,
    ]),
  ])('delivers an enquiry from %s, Reply-To: %s', async (address, replyTo) => {
    const binding = fakeEmailBinding()
    expect((await sendEnquiryEmail({ ...enquiry, email: address }, withBinding(binding))).ok).toBe(true)
    const { headers, body } = parse(binding.sent[0]?.raw ?? '')
    expect(headers.get('reply-to')).toBe(replyTo)
    expect(body).toContain(`Email:    ${address}`)
  })
})
