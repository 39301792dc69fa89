import { describe, expect, it } from 'vitest'
import { confirmMove, EARLY_ACCESS_STATES, leaveMove, signupMove } from '~/ledger/early-access'
import { checkConfirmLink, checkLeaveLink, signConfirmLink, signLeaveLink } from '~/notices/early-access-link'
import { buildPlainTextEmail } from '~/notices/message'
import { earlyAccessSetup, noticesSetup, noticesSetupLines } from '~/notices/setup'
import { contactEnv, fakeEmailBinding } from '../support/fake-env'

const SECRET = 'unit-early-access-secret-0123456789abcdef'
const ID = `ea-${'0123456789abcdef'.repeat(2)}`
const now = new Date('2030-05-01T10:00:00Z')
const later = (days: number) => new Date(now.getTime() + days * 86_400_000)

describe('the signed links', () => {
  it('confirm: valid for 7 days, then expired; a changed id, expiry or signature is invalid', async () => {
    const link = await signConfirmLink(SECRET, ID, now)
    expect(await checkConfirmLink(SECRET, link, later(6.99))).toEqual({ ok: true, id: ID })
    expect(await checkConfirmLink(SECRET, link, later(7))).toEqual({ ok: false, reason: 'expired' })
    const other = `ea-${'f'.repeat(32)}`
    for (const forged of [
      { ...link, id: other },
      { ...link, until: String(Number(link.until) + 86_400) },
      { ...link, sig: `${link.sig.slice(0, -1)}${link.sig.endsWith('A') ? 'B' : 'A'}` },
    ])
      expect(await checkConfirmLink(SECRET, forged, now)).toEqual({ ok: false, reason: 'invalid' })
    // Forged and expired: invalid, the signature first.
    expect(await checkConfirmLink(SECRET, { ...link, id: other }, later(30))).toEqual({ ok: false, reason: 'invalid' })
    expect(await checkConfirmLink(`${SECRET}-rotated`, link, now)).toEqual({ ok: false, reason: 'invalid' })
  })

  it('leave: never expires, fits no other purpose, and nothing is honoured under a short secret', async () => {
    const leave = await signLeaveLink(SECRET, ID)
    expect(await checkLeaveLink(SECRET, leave)).toEqual({ ok: true, id: ID })
    const confirm = await signConfirmLink(SECRET, ID, now)
    expect(await checkLeaveLink(SECRET, { id: ID, sig: confirm.sig })).toMatchObject({ ok: false })
    expect(await checkConfirmLink(SECRET, { ...confirm, sig: leave.sig }, now)).toMatchObject({ ok: false })
    expect(await checkLeaveLink('short', await signLeaveLink('short', ID))).toMatchObject({ ok: false })
  })
})

describe('the states and their moves', () => {
  it('a signup: new, departed and pending addresses are asked to confirm; a confirmed one is not written to', () => {
    expect(signupMove(null)).toEqual({ state: 'pending', send: true, fresh: true })
    expect(signupMove('left')).toEqual({ state: 'pending', send: true, fresh: true })
    expect(signupMove('pending')).toEqual({ state: 'pending', send: true, fresh: false })
    expect(signupMove('confirmed')).toEqual({ state: 'confirmed', send: false })
  })

  it('only a pending entry confirms; only a pending or confirmed one leaves', () => {
    expect([null, ...EARLY_ACCESS_STATES].map((state) => confirmMove(state))).toEqual([
      { answer: 'gone', change: false },
      { answer: 'confirmed', change: true },
      { answer: 'already', change: false },
      { answer: 'left', change: false },
    ])
    expect([null, ...EARLY_ACCESS_STATES].map((state) => leaveMove(state))).toEqual([
      { answer: 'gone', change: false },
      { answer: 'left', change: true },
      { answer: 'left', change: true },
      { answer: 'already', change: false },
    ])
  })
})

describe('the set-up', () => {
  it('is on with the binding, a sender and a long secret; the desk names what is missing', () => {
    const binding = fakeEmailBinding()
    const on = { CONTACT_EMAIL: binding, EARLY_ACCESS_FROM: 'updates@aksharalabs.in', EARLY_ACCESS_LINK_SECRET: SECRET }
    expect(earlyAccessSetup(contactEnv(on))).toMatchObject({ on: true, from: 'updates@aksharalabs.in' })
    for (const [parts, why] of [
      [{ ...on, CONTACT_EMAIL: undefined }, 'the send_email binding CONTACT_EMAIL is not bound'],
      [{ ...on, EARLY_ACCESS_FROM: '' }, 'EARLY_ACCESS_FROM is not set'],
      [{ ...on, EARLY_ACCESS_FROM: 'updates' }, 'EARLY_ACCESS_FROM is not an address'],
      [{ ...on, EARLY_ACCESS_LINK_SECRET: 'short' }, 'EARLY_ACCESS_LINK_SECRET is not set (32 characters or more)'],
    ] as const)
      expect(earlyAccessSetup(contactEnv(parts))).toEqual({ on: false, why })
    const line = noticesSetupLines(noticesSetup(contactEnv({})), 'hello@aksharalabs.in').find(
      (each) => each.id === 'setup-early-access',
    )
    expect(line?.value).toBe(
      "off: the send_email binding CONTACT_EMAIL is not bound; the products page's button opens the contact form",
    )
  })
})

it('the one-click headers (RFC 8058) take only an http(s) URL, never a line break', () => {
  const mail = {
    from: { address: 'updates@aksharalabs.in' },
    to: { address: 'asha@example.com' },
    subject: 'Confirm',
    text: 'Hello',
    date: now,
    messageId: 'early-access.1',
  }
  const raw = buildPlainTextEmail({
    ...mail,
    oneClickUnsubscribe: 'https://aksharalabs.in/api/early-access/leave?id=a&sig=b',
  })
  expect(raw).toContain(
    '\r\nList-Unsubscribe: <https://aksharalabs.in/api/early-access/leave?id=a&sig=b>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n',
  )
  for (const bad of ['javascript:alert(1)', 'https://a.example/x\r\nBcc: b@example.com'])
    expect(() => buildPlainTextEmail({ ...mail, oneClickUnsubscribe: bad })).toThrow()
})
