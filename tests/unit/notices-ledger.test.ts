// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { EnquiryRecord } from '~/ledger'
import { sendAlert, sendDigest, sendReceipt, withdrawEnquiry, withdrawState } from '~/notices/notices.server'
import { signWithdrawLink } from '~/notices/receipt-link'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { FakeEmailMessage, fakeEmailBinding } from '../support/fake-env'
import { emailBody, form, setUpSubmitHarness } from '../support/submit-harness'
import { ledgerEnquiry } from '../support/values'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

// The notices on real SQLite: what goes once, or at most once an hour or a day, even when two runs race.
setUpSubmitHarness()
let binding: ReturnType<typeof fakeEmailBinding>
beforeEach(() => {
  binding = fakeEmailBinding()
})
const SECRET = 'unit-receipt-secret-0123456789abcdef'

const env = (extra: Record<string, unknown> = {}): WorkerEnv =>
  ({
    ENQUIRIES: form.d1.db,
    CONTACT_EMAIL: binding,
    CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
    DIGEST_HOUR_UTC: '7',
    ALERT_AFTER_FAILURES: '3',
    RECEIPT_FROM: 'hello@aksharalabs.in',
    RECEIPT_LINK_SECRET: SECRET,
    ...extra,
  }) as WorkerEnv

function addEnquiry(id: string, fields: Partial<Record<string, string | number>> = {}) {
  form.d1.sqlite
    .prepare(
      `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, attempts)
       VALUES (?, ?, ?, 'Zeynep', ?, 'Co', 'devops', 'the secret words', ?, ?)`,
    )
    .run(
      id,
      `key-${id}`,
      String(fields.received_at ?? '2026-11-24T06:00:00.000Z'),
      String(fields.email ?? `${id}@example.com`),
      String(fields.status ?? 'pending'),
      Number(fields.attempts ?? 0),
    )
}

function addAttempt(id: string, at: string, outcome = 'failed', cause: string | null = 'upstream_refused') {
  form.d1.sqlite
    .prepare(
      `INSERT INTO enquiry_attempts (enquiry_id, attempt, attempted_at, delivery, outcome, cause) VALUES (?, 1, ?, 'form-service', ?, ?)`,
    )
    .run(id, at, outcome, cause)
}

describe('the daily digest in the database', () => {
  it('goes once a day from the hour on, even when two runs race', async () => {
    addEnquiry('a', { status: 'held' })
    const at8 = new Date('2026-11-24T08:00:00Z')
    expect(await sendDigest(env(), new Date('2026-11-24T06:59:00Z'))).toBe('not_due')
    const both = await Promise.all([sendDigest(env(), at8), sendDigest(env(), at8)])
    expect(both.sort()).toEqual(['not_due', 'sent'])
    expect(await sendDigest(env(), new Date('2026-11-24T23:00:00Z'))).toBe('not_due')
    expect(binding.sent).toHaveLength(1)
    expect(binding.sent[0]?.to).toBe(site.email)
    expect(emailBody(binding.sent[0]?.raw ?? '')).toMatch(/Held \(spam check\), waiting\s+1\s/)
    expect(await sendDigest(env(), new Date('2026-11-25T07:00:00Z'))).toBe('sent')
    expect(binding.sent).toHaveLength(2)
  })

  it('counts as overdue what the desk marks overdue: new or open past its reply-by time, never a closed one', async () => {
    // Friday 10:00: one business day later is Monday 10:00, so by Tuesday both are past it.
    addEnquiry('late', { received_at: '2026-11-20T10:00:00.000Z', status: 'delivered' })
    addEnquiry('done', { received_at: '2026-11-20T10:00:00.000Z', status: 'delivered' })
    form.d1.sqlite.prepare("UPDATE enquiries SET triage = 'closed', outcome = 'won' WHERE id = 'done'").run()
    // Received this morning: not due until tomorrow.
    addEnquiry('fresh', { status: 'delivered' })
    expect(await sendDigest(env(), new Date('2026-11-24T08:00:00Z'))).toBe('sent')
    const text = emailBody(binding.sent[0]?.raw ?? '')
    expect(text).toMatch(/^Overdue\s+1\s+\S+\/admin\?overdue=yes$/m)
    // The digest gave the unread ones their reply-by time, as opening the desk does.
    const late = form.d1.row<{ reply_by: string }>("SELECT reply_by FROM enquiries WHERE id = 'late'")
    expect(late?.reply_by).toBe('2026-11-23T10:00:00.000Z')
  })

  it('is off without the binding, and tried again on the next run when sending failed', async () => {
    const at8 = new Date('2026-11-24T08:00:00Z')
    expect(await sendDigest(env({ CONTACT_EMAIL: undefined }), at8)).toBe('off')
    expect(await sendDigest(env({ CONTACT_EMAIL: fakeEmailBinding({ failing: true }) }), at8)).toBe('failed')
    expect(await sendDigest(env(), at8)).toBe('sent')
  })
})

describe('the delivery alert in the database', () => {
  beforeEach(() => {
    for (const [minute, id] of ['a', 'b', 'c'].entries()) {
      addEnquiry(id, { attempts: 1 })
      addAttempt(id, `2026-11-24T10:0${minute + 1}:00.000Z`)
    }
  })

  it('goes for three failures in a row, once, even when two runs race; none within the hour', async () => {
    const now = new Date('2026-11-24T10:04:00Z')
    expect((await Promise.all([sendAlert(env(), now), sendAlert(env(), now)])).sort()).toEqual(['none', 'sent'])
    expect(binding.sent).toHaveLength(1)
    const text = emailBody(binding.sent[0]?.raw ?? '')
    expect(text).toContain('upstream_refused')
    expect(text).not.toMatch(/the secret words|a@example.com/)
    // A fourth failure 30 minutes later: still within the hour; an hour after the alert, the next one.
    addEnquiry('d', { attempts: 1 })
    addAttempt('d', '2026-11-24T10:34:00.000Z')
    expect(await sendAlert(env(), new Date('2026-11-24T10:35:00Z'))).toBe('none')
    expect(await sendAlert(env(), new Date('2026-11-24T11:05:00Z'))).toBe('sent')
    // Another hour, nothing new failed: none.
    expect(await sendAlert(env(), new Date('2026-11-24T12:10:00Z'))).toBe('none')
    expect(binding.sent).toHaveLength(2)
  })

  it('does not go when a delivery broke the streak, or when alerts are off', async () => {
    expect(await sendAlert(env({ ALERT_AFTER_FAILURES: 'off' }), new Date('2026-11-24T10:04:00Z'))).toBe('off')
    addEnquiry('e', { status: 'delivered', attempts: 1 })
    addAttempt('e', '2026-11-24T10:05:00.000Z', 'delivered', null)
    expect(await sendAlert(env(), new Date('2026-11-24T10:06:00Z'))).toBe('none')
    expect(binding.sent).toHaveLength(0)
  })
})

describe('the receipt in the database', () => {
  const record = (id: string, email: string, status: EnquiryRecord['status'] = 'pending'): EnquiryRecord => {
    addEnquiry(id, { email, status })
    const enquiry = ledgerEnquiry(id, {
      id,
      email,
      name: 'Zeynep',
      message: 'the secret words',
      receivedAt: '2026-11-24T09:00:00.000Z',
    })
    const nothingYet = { attempts: 0, nextAttemptAt: null, lastCause: null, deliveredAt: null, deliveredBy: null }
    const held = { heldReason: status === 'held' ? 'turnstile_missing' : null, handledAt: null, handledBy: null }
    return { ...enquiry, status, ...nothingYet, ...held }
  }
  const now = new Date('2026-11-24T09:00:00Z')
  const from = { network: '192.0.2.0/24', turnstile: 'off' } as const

  it('goes to the visitor once a day per address, never for a held one, never with the message', async () => {
    const receipt = (id: string, email: string, at = now, e = env(), status?: EnquiryRecord['status']) =>
      sendReceipt(e, record(id, email, status), from, at)
    expect(await receipt('20261124-aaaaaaaaaaaaaaaa', 'Priya@example.com')).toBe('sent')
    expect(binding.sent[0]).toMatchObject({ to: 'Priya@example.com', from: 'hello@aksharalabs.in' })
    expect(emailBody(binding.sent[0]?.raw ?? '')).not.toContain('the secret words')
    expect(await receipt('20261124-bbbbbbbbbbbbbbbb', 'priya@example.com')).toBe('daily_limit')
    expect(await receipt('20261124-cccccccccccccccc', 'held@example.com', now, env(), 'held')).toBe('held')
    expect(await receipt('20261124-dddddddddddddddd', 'x@example.com', now, env({ RECEIPT_FROM: '' }))).toBe('off')
    const tomorrow = new Date('2026-11-25T09:00:00Z')
    expect(await receipt('20261125-eeeeeeeeeeeeeeee', 'priya@example.com', tomorrow)).toBe('sent')
    expect(binding.sent).toHaveLength(2)
    // No address is kept: only its keyed hash.
    expect(JSON.stringify(form.d1.query('SELECT * FROM receipt_days'))).not.toContain('priya')
  })

  it('is withdrawn by its link, and only by its link', async () => {
    const id = '20261124-ffffffffffffffff'
    record(id, 'w@example.com')
    const link = await signWithdrawLink(SECRET, id, now)
    const fields = { id, until: String(link.until), sig: link.sig }
    const forged = { ...fields, sig: `${link.sig.slice(0, -1)}A` }
    expect(await withdrawState(env(), forged, now)).toEqual({ state: 'invalid' })
    expect(await withdrawEnquiry(env(), forged, now)).toBe('invalid')
    expect(await withdrawEnquiry(env(), fields, new Date(now.getTime() + 31 * 86_400_000))).toBe('expired')
    const confirm = { state: 'confirm', reference: '20261124-ffffff', receivedAt: '2026-11-24T06:00:00.000Z' }
    expect(await withdrawState(env(), fields, now)).toEqual(confirm)
    expect(await withdrawEnquiry(env(), fields, now)).toBe('erased')
    expect(form.d1.query('SELECT id FROM enquiries WHERE id = ?', id)).toEqual([])
    // The audit trail keeps the withdrawal, with the enquiry's id and no personal data.
    const line = { operator: 'the person who wrote (receipt link)', action: 'withdraw', enquiry_id: id }
    expect(form.d1.query('SELECT operator, action, enquiry_id FROM audit_log WHERE enquiry_id = ?', id)).toEqual([line])
    expect(await withdrawEnquiry(env(), fields, now)).toBe('gone')
  })
})
