// @vitest-environment node
import { describe, expect, it } from 'vitest'
import type { RecentAttempt } from '../../app/ledger'
import { ALERT_INTERVAL_MS, alertAfter, alertDue, alertMessage, failureStreak } from '../../app/notices/alert'
import { digestDueDay, digestHour, digestMessage } from '../../app/notices/digest'
import { enquiryReference, greetingName, mailboxKey, receiptMessage } from '../../app/notices/receipt'
import {
  checkWithdrawLink,
  RECEIPT_LINK_DAYS,
  recipientHash,
  signWithdrawLink,
  withdrawUrl,
} from '../../app/notices/receipt-link'
import { noticesSetup } from '../../app/notices/setup'

const failed = (enquiryId: string, attemptedAt: string, cause = 'upstream_refused'): RecentAttempt =>
  ({ enquiryId, attemptedAt, outcome: 'failed', cause }) as const
const delivered = (enquiryId: string, attemptedAt: string): RecentAttempt =>
  ({ enquiryId, attemptedAt, outcome: 'delivered', cause: null }) as const

describe('the delivery alert', () => {
  it('is a streak only when several different enquiries in a row failed for one cause', () => {
    const rows = [
      failed('c', '2026-11-24T10:03:00Z'),
      failed('b', '2026-11-24T10:02:00Z'),
      failed('b', '2026-11-24T10:01:30Z'), // b's earlier attempt counts once
      failed('a', '2026-11-24T10:01:00Z'),
      delivered('z', '2026-11-24T09:00:00Z'),
    ]
    const streak = { cause: 'upstream_refused', enquiryIds: ['c', 'b', 'a'], latestAt: '2026-11-24T10:03:00Z' }
    expect(failureStreak(rows, 3)).toEqual(streak)
    expect(failureStreak(rows, 4)).toBeNull()
    // One enquiry failing many times is not a streak.
    expect(failureStreak([failed('a', '3'), failed('a', '2'), failed('a', '1')], 2)).toBeNull()
    expect(failureStreak([failed('c', '3'), failed('b', '2', 'upstream_timeout'), failed('a', '1')], 2)).toBeNull()
    expect(failureStreak([failed('c', '3'), delivered('b', '2'), failed('a', '1')], 2)).toBeNull()
    expect(failureStreak([delivered('b', '3'), failed('b', '2'), failed('a', '1')], 1)).toBeNull()
  })

  it('goes at most once an hour per cause, and never twice for the same failures', () => {
    const now = new Date('2026-11-24T12:00:00Z')
    const streak = { cause: 'upstream_refused', enquiryIds: ['c', 'b', 'a'], latestAt: '2026-11-24T11:59:00Z' }
    expect(alertDue(streak, null, now)).toBe(true)
    expect(alertDue(streak, new Date(now.getTime() - ALERT_INTERVAL_MS + 1000).toISOString(), now)).toBe(false)
    expect(alertDue(streak, '2026-11-24T11:58:00Z', now)).toBe(false)
    expect(alertDue(streak, new Date(now.getTime() - ALERT_INTERVAL_MS).toISOString(), now)).toBe(true)
    expect(alertDue({ ...streak, latestAt: '2026-11-24T11:30:00Z' }, '2026-11-24T10:59:00Z', now)).toBe(true)
    expect(alertDue({ ...streak, latestAt: '2026-11-24T10:00:00Z' }, '2026-11-24T10:30:00Z', now)).toBe(false)
  })

  it('reads ALERT_AFTER_FAILURES: default 3, off, and nothing out of range', () => {
    expect(alertAfter(undefined)).toBe(3)
    expect(alertAfter(' ')).toBe(3)
    expect(alertAfter('5')).toBe(5)
    for (const value of ['off', '1', '51', '3.5', 'x']) expect(alertAfter(value)).toBeNull()
  })

  it('names the cause and links each enquiry, with no personal data', () => {
    const { subject, text } = alertMessage(
      { cause: 'upstream_refused', enquiryIds: ['20261124-abc', '20261124-def'], latestAt: '' },
      { siteName: 'Akshara Labs', deskLink: 'https://aksharalabs.example/admin', now: new Date() },
    )
    expect(subject).toBe('Deliveries failing: upstream_refused on 2 enquiries in a row — Akshara Labs')
    expect(text).toContain('https://aksharalabs.example/admin/enquiries/20261124-abc')
    expect(text).toContain('CONTACT_FORM_ACCESS_KEY')
  })
})

describe('the daily digest', () => {
  it('is due from the hour on, per UTC day; DIGEST_HOUR_UTC defaults to 7 and can be off', () => {
    expect(digestHour(undefined)).toBe(7)
    expect(digestHour('0')).toBe(0)
    expect(digestHour('23')).toBe(23)
    for (const value of ['off', '24', '-1', '7am']) expect(digestHour(value)).toBeNull()
    expect(digestDueDay(new Date('2026-11-24T06:59:59Z'), 7)).toBeNull()
    expect(digestDueDay(new Date('2026-11-24T07:00:00Z'), 7)).toBe('2026-11-24')
    expect(digestDueDay(new Date('2026-11-24T23:59:00Z'), 7)).toBe('2026-11-24')
  })

  it('gives each count with the desk view that lists it', () => {
    const { subject, text } = digestMessage(
      { received: 4, delivered: 2, held: 1, failing: 3, overdue: 2 },
      { siteName: 'Akshara Labs', deskLink: 'https://aksharalabs.example/admin', day: '2026-11-24' },
    )
    expect(subject).toBe('Enquiries 2026-11-24: 4 received, 6 need a look — Akshara Labs')
    const line = (label: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(label))
        ?.replace(/\s+/g, ' ')
    const desk = 'https://aksharalabs.example/admin'
    expect(line('Received')).toBe(`Received in the last 24 h 4 ${desk}`)
    expect(line('Delivered')).toBe(`Delivered in the last 24 h 2 ${desk}?status=delivered`)
    expect(line('Held')).toBe(`Held (spam check), waiting 1 ${desk}?status=held`)
    expect(line('Failing')).toBe(`Failing delivery now 3 ${desk}?status=failed`)
    expect(line('Overdue')).toBe(`Overdue 2 ${desk}?overdue=yes`)
    const quiet = digestMessage(
      { received: 0, delivered: 0, held: 0, failing: 0, overdue: 0 },
      { siteName: 'Akshara Labs', deskLink: 'https://x.example/admin', day: '2026-11-24' },
    )
    expect(quiet.subject).toBe('Enquiries 2026-11-24: 0 received — Akshara Labs')
  })
})

describe('the receipt’s withdraw link', () => {
  const secret = 'unit-test-receipt-secret-0123456789abcdef'
  const now = new Date('2026-11-24T10:00:00Z')

  it('works for 30 days, then says expired', async () => {
    const link = await signWithdrawLink(secret, '20261124-abcdefghijklmnop', now)
    expect(link.until).toBe(Math.floor(now.getTime() / 1000) + RECEIPT_LINK_DAYS * 86_400)
    const fields = { id: link.id, until: String(link.until), sig: link.sig }
    expect(await checkWithdrawLink(secret, fields, now)).toEqual({ ok: true, id: link.id })
    const day29 = new Date(now.getTime() + 29 * 86_400_000)
    expect((await checkWithdrawLink(secret, fields, day29)).ok).toBe(true)
    const day30 = new Date(now.getTime() + 30 * 86_400_000)
    expect(await checkWithdrawLink(secret, fields, day30)).toEqual({ ok: false, reason: 'expired' })
  })

  it('is invalid when any part is changed, or signed with another secret', async () => {
    const link = await signWithdrawLink(secret, '20261124-abcdefghijklmnop', now)
    const fields = { id: link.id, until: String(link.until), sig: link.sig }
    const invalid = { ok: false, reason: 'invalid' }
    expect(await checkWithdrawLink(secret, { ...fields, id: '20261124-abcdefghijklmnoq' }, now)).toEqual(invalid)
    expect(await checkWithdrawLink(secret, { ...fields, until: String(link.until + 86_400) }, now)).toEqual(invalid)
    expect(await checkWithdrawLink(secret, { ...fields, sig: `${link.sig.slice(0, -1)}x` }, now)).toEqual(invalid)
    expect(await checkWithdrawLink(`${secret}-other`, fields, now)).toEqual(invalid)
    expect(await checkWithdrawLink('short', fields, now)).toEqual(invalid)
    expect(await checkWithdrawLink(secret, { id: '', until: '', sig: '' }, now)).toEqual(invalid)
    expect(withdrawUrl('https://aksharalabs.example/', link)).toBe(
      `https://aksharalabs.example/withdraw?id=20261124-abcdefghijklmnop&until=${link.until}&sig=${link.sig}`,
    )
  })

  it('keys the once-a-day rule by an HMAC of the address, any case', async () => {
    const hash = await recipientHash(secret, 'Priya@Example.com ')
    expect(hash).toBe(await recipientHash(secret, 'priya@example.com'))
    expect(hash).not.toContain('priya')
    expect(hash).not.toBe(await recipientHash(secret, 'other@example.com'))
  })
})

describe('the receipt', () => {
  const content = {
    siteName: 'Akshara Labs',
    enquiryId: '20261124-AbCdEfGhIjKlMnOp',
    name: 'Lakshmi Prasanna',
    receivedAt: '2026-11-24T10:00:00.000Z',
    withdrawUrl: 'https://aksharalabs.example/withdraw?id=x&until=1&sig=y',
    linkUntil: new Date('2026-12-24T10:00:00Z'),
    contactEmail: 'hello@aksharalabs.example',
  }

  it('carries a reference, what happens next and when, and the link', () => {
    const { subject, text } = receiptMessage(content)
    expect(enquiryReference(content.enquiryId)).toBe('20261124-AbCdEf')
    expect(subject).toBe('We have your enquiry (20261124-AbCdEf) — Akshara Labs')
    expect(text).toContain('Hello Lakshmi,')
    expect(text).toContain('Your reference: 20261124-AbCdEf')
    expect(text).toContain('replies to this address within one business day')
    expect(text).toContain(content.withdrawUrl)
    expect(text).toContain('This link works until 24 December 2026.')
  })

  it('has no room for the message or another field: only a name that reads as a name', () => {
    expect(Object.keys(content).sort()).toEqual(
      ['contactEmail', 'enquiryId', 'linkUntil', 'name', 'receivedAt', 'siteName', 'withdrawUrl'].sort(),
    )
    expect(greetingName('Line\nbreak')).toBe('Line')
    const greeted = { 'Śrī Rāma': 'Śrī', "Siobhán O'Brien": 'Siobhán', 'A. N. Other': 'A.', నమస్కారం: 'నమస్కారం' }
    for (const [name, first] of Object.entries({ ...greeted, 'Jean-Luc': 'Jean-Luc' }))
      expect(greetingName(name)).toBe(first)
    for (const spam of [
      'Win money at https://spam.example',
      'visit buy.example now',
      'call 555 0100',
      'me@spam.example',
      '<b>hi</b>',
      'x'.repeat(61),
      'x'.repeat(31),
      'Your account is locked call us now',
      'Hello dear customer please',
    ]) {
      expect(greetingName(spam)).toBeNull()
      const { subject, text } = receiptMessage({ ...content, name: spam })
      expect(text.startsWith('Hello,\n')).toBe(true)
      expect(subject + text).not.toContain(spam)
    }
  })
})

describe('one mailbox, however its address is spelled (the one-receipt-a-day key)', () => {
  it.each([
    ['Victim@Example.com', 'victim@example.com'],
    ['victim+1@example.com', 'victim@example.com'],
    ['victim+a+b@example.com', 'victim@example.com'],
    ['first.last@example.com', 'first.last@example.com'],
    ['first.last+x@example.com', 'first.last@example.com'],
    ['First.Last@gmail.com', 'firstlast@gmail.com'],
    ['f.i.r.s.t.l.a.s.t+2@gmail.com', 'firstlast@gmail.com'],
    ['firstlast@googlemail.com', 'firstlast@gmail.com'],
    ['first.last+news@GoogleMail.com', 'firstlast@gmail.com'],
    ['  victim@gmail.com. ', 'victim@gmail.com'],
    ['+only@example.com', '+only@example.com'],
    ['not an address', 'not an address'],
  ])('%s → %s', (address, mailbox) => {
    expect(mailboxKey(address)).toBe(mailbox)
  })
})

describe('which notices are on', () => {
  const bound = { send: async () => ({ messageId: 'x' }) } as unknown as SendEmail
  const base = { CONTACT_EMAIL: bound, CONTACT_EMAIL_FROM: 'website@aksharalabs.in' }
  const secret = 'x'.repeat(32)

  it('turns the digest and the alerts off without send_email or a sender', () => {
    const off = noticesSetup({ CONTACT_EMAIL_FROM: 'website@aksharalabs.in' })
    const unbound = { on: false, why: 'the send_email binding CONTACT_EMAIL is not bound' }
    expect(off).toMatchObject({ digest: unbound, alerts: unbound })
    const noSender = { on: false, why: 'CONTACT_EMAIL_FROM is not set to an address' }
    expect(noticesSetup({ CONTACT_EMAIL: bound }).digest).toEqual(noSender)
    expect(noticesSetup(base).digest).toEqual({ on: true, hourUtc: 7 })
    expect(noticesSetup(base).alerts).toEqual({ on: true, after: 3 })
    expect(noticesSetup({ ...base, DIGEST_HOUR_UTC: 'off', ALERT_AFTER_FAILURES: 'off' }).digest.on).toBe(false)
  })

  it('keeps the receipt off unless RECEIPT_FROM and a long enough RECEIPT_LINK_SECRET are set, with send_email', () => {
    const from = 'hello@aksharalabs.in'
    const on = { ...base, RECEIPT_FROM: from, RECEIPT_LINK_SECRET: secret }
    expect(noticesSetup(base).receipt).toEqual({ on: false, why: 'RECEIPT_FROM is not set' })
    for (const off of [
      { ...base, RECEIPT_FROM: from },
      { ...on, RECEIPT_LINK_SECRET: secret.slice(1) },
      { ...on, RECEIPT_FROM: 'not an address' },
      { RECEIPT_FROM: from, RECEIPT_LINK_SECRET: secret },
    ])
      expect(noticesSetup(off).receipt.on).toBe(false)
    expect(noticesSetup(on).receipt).toEqual({ on: true, from, perNetwork: 10, perSite: 200 })
    // The caps: whole numbers from 1 to 100,000, else the documented defaults.
    const caps = noticesSetup({ ...on, RECEIPTS_PER_NETWORK_DAY: '3', RECEIPTS_PER_SITE_DAY: '50' }).receipt
    expect(caps).toMatchObject({ perNetwork: 3, perSite: 50 })
    for (const bad of ['0', '-1', 'ten', '1e3', '100001'])
      expect(noticesSetup({ ...on, RECEIPTS_PER_NETWORK_DAY: bad }).receipt).toMatchObject({ perNetwork: 10 })
  })
})
