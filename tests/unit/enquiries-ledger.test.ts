// @vitest-environment node
import { describe, expect, it } from 'vitest'
import {
  attemptsOf,
  claimEnquiry,
  dueEnquiryIds,
  type EnquiryFilter,
  eraseEnquiry,
  getEnquiry,
  listEnquiries,
  markHandled,
  purgeExpiredEnquiries,
  recordAttempt,
  requeueEnquiry,
} from '../../app/ledger/index.server'
import { ENQUIRY_RETENTION_DAYS, retentionDays } from '../../app/ledger/retention'
import { sqliteD1 } from '../support/d1-sqlite'
import { storedEnquiry } from '../support/ledger'

/** The lease token of a claim on a due enquiry, for recording an attempt's result. */
async function claimed(db: D1Database, id: string, now: string): Promise<string> {
  const claim = await claimEnquiry(db, id, now, new Date(Date.parse(now) + 120_000).toISOString())
  if (!claim) throw new Error(`could not claim ${id}`)
  return claim.token
}

describe('retention', () => {
  it('the scheduled purge deletes enquiries older than the period, with their delivery history, and keeps the rest', async () => {
    const d1 = sqliteD1()
    const now = new Date('2026-11-23T12:00:00.000Z')
    const old = await storedEnquiry(d1.db, '2024-11-20T12:00:00.000Z')
    const recent = await storedEnquiry(d1.db, '2024-11-26T12:00:00.000Z')
    await recordAttempt(d1.db, old, await claimed(d1.db, old, '2024-11-20T12:00:00.000Z'), {
      attempt: 1,
      attemptedAt: '2024-11-20T12:00:01.000Z',
      delivery: 'form-service',
      status: 'delivered',
      cause: null,
      nextAttemptAt: null,
    })
    expect(await attemptsOf(d1.db, old)).toHaveLength(1)

    expect(await purgeExpiredEnquiries({ ENQUIRIES: d1.db }, now)).toBe(1)
    expect(await getEnquiry(d1.db, old)).toBeNull()
    expect(d1.query('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?', old)).toHaveLength(0)
    expect(await getEnquiry(d1.db, recent)).not.toBeNull()

    // A shorter period set by the variable applies; a longer one than promised does not.
    expect(await purgeExpiredEnquiries({ ENQUIRIES: d1.db, ENQUIRY_RETENTION_DAYS: '5000' }, now)).toBe(0)
    expect(await purgeExpiredEnquiries({ ENQUIRIES: d1.db, ENQUIRY_RETENTION_DAYS: '30' }, now)).toBe(1)
    expect(await getEnquiry(d1.db, recent)).toBeNull()
  })

  // The privacy page's words for the period: ops-config.test.ts.
  it('reads the period from ENQUIRY_RETENTION_DAYS, else 730 days', () => {
    expect(ENQUIRY_RETENTION_DAYS).toBe(730)
    for (const unset of [undefined, 'abc', '0']) expect(retentionDays(unset)).toBe(730)
    expect(retentionDays('90')).toBe(90)
  })
})

describe('the desk queries', () => {
  it('lists newest first, filters by status, searches name, e-mail and company with wildcards taken literally, and pages', async () => {
    const d1 = sqliteD1()
    const a = await storedEnquiry(d1.db, '2026-11-01T10:00:00.000Z', { name: 'Asha Rao', company: '100% Organic_Ltd' })
    const b = await storedEnquiry(d1.db, '2026-11-02T10:00:00.000Z', { name: 'Ben Ode', email: 'ben@acme.example' })
    const c = await storedEnquiry(d1.db, '2026-11-03T10:00:00.000Z', { name: 'Chitra', company: '100 Organic Ltd' })

    const list = (filter: EnquiryFilter, limit = 10, offset = 0) => listEnquiries(d1.db, filter, { limit, offset })
    const ids = async (filter: EnquiryFilter, limit = 10, offset = 0) =>
      (await list(filter, limit, offset)).records.map((r) => r.id)

    expect(await list({})).toMatchObject({ total: 3, records: [{ id: c }, { id: b }, { id: a }] })
    expect(await list({}, 2, 2)).toMatchObject({ total: 3, records: [{ id: a }] })
    expect(await ids({ search: 'ACME' })).toEqual([b])
    expect(await ids({ search: '100%' })).toEqual([a])
    expect(await ids({ search: 'h_' })).toEqual([])
    expect(await ids({ search: "'; DROP TABLE enquiries; --" })).toEqual([])

    expect(await markHandled(d1.db, b, '2026-11-04T00:00:00.000Z', 'op@example.com')).toBe(true)
    const handled = await list({ status: 'handled' })
    expect(handled.records).toEqual([expect.objectContaining({ id: b, handledBy: 'op@example.com' })])
    expect(handled.records[0]?.handledAt).toBe('2026-11-04T00:00:00.000Z')
    expect(await ids({ status: 'pending', search: 'organic' })).toEqual([c, a])
  })

  it('a held enquiry is never claimed for delivery until it is released; a handled one never after', async () => {
    const d1 = sqliteD1()
    const id = await storedEnquiry(d1.db, '2026-11-01T10:00:00.000Z', {}, true)
    const now = '2026-11-05T00:00:00.000Z'
    expect(await dueEnquiryIds(d1.db, now, 10)).toEqual([])
    expect(await claimEnquiry(d1.db, id, now, '2026-11-05T00:02:00.000Z')).toBeNull()

    expect(await requeueEnquiry(d1.db, id, now, ['held'])).toBe(true)
    expect(await getEnquiry(d1.db, id)).toMatchObject({ status: 'pending', heldReason: null, nextAttemptAt: now })
    expect(await dueEnquiryIds(d1.db, now, 10)).toEqual([id])
    expect(await requeueEnquiry(d1.db, id, now, ['held'])).toBe(false)

    expect(await markHandled(d1.db, id, now, 'op@example.com')).toBe(true)
    expect(await dueEnquiryIds(d1.db, now, 10)).toEqual([])
    expect(await markHandled(d1.db, id, now, 'op@example.com')).toBe(false)
  })

  it('erasing removes the enquiry and its delivery history', async () => {
    const d1 = sqliteD1()
    const id = await storedEnquiry(d1.db, '2026-11-01T10:00:00.000Z')
    await recordAttempt(d1.db, id, await claimed(d1.db, id, '2026-11-01T10:00:00.000Z'), {
      attempt: 1,
      attemptedAt: '2026-11-01T10:00:01.000Z',
      delivery: 'form-service',
      status: 'pending',
      cause: 'upstream_timeout',
      nextAttemptAt: '2026-11-01T10:01:01.000Z',
    })
    expect(await eraseEnquiry(d1.db, id)).toBe(true)
    expect(await getEnquiry(d1.db, id)).toBeNull()
    expect(d1.query('SELECT * FROM enquiry_attempts')).toHaveLength(0)
    expect(await eraseEnquiry(d1.db, id)).toBe(false)
  })
})
