// @vitest-environment node
// Held enquiries (no Turnstile pass): the hourly cap per network, and their shorter retention.
import { describe, expect, it, vi } from 'vitest'
import { HELD_PER_HOUR } from '~/contact/limits.server'
import { runScheduled } from '~/cron.server'
import { purgeExpiredEnquiries, recordAttempt, storeEnquiry } from '~/ledger/index.server'
import { HELD_RETENTION_DAYS, heldRetentionDays } from '~/ledger/retention'
import { storedEnquiry } from '../support/ledger'
import {
  allRows,
  envUnbound,
  form,
  logged,
  setUpSubmitHarness,
  submitFrom,
  tokenInput,
} from '../support/submit-harness'
import { ledgerEnquiry } from '../support/values'

setUpSubmitHarness()

describe('the hourly cap on held enquiries', () => {
  const turnstileOn = () => envUnbound({ TURNSTILE_SITE_KEY: 'site-key', TURNSTILE_SECRET_KEY: 'secret' })

  it(`keeps ${HELD_PER_HOUR} held an hour per network; beyond, that network's tokenless post is refused (429, not stored), another network's is stored, and one with a valid token is delivered`, async () => {
    const e = turnstileOn()
    // One /48, twenty /64s in it, over two minutes (the flood limit lets 10 a minute from a network).
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    try {
      for (let i = 0; i < HELD_PER_HOUR; i++) {
        vi.setSystemTime(start + Math.floor(i / 10) * 61_000)
        expect((await submitFrom(`2001:db8:aaaa:${(0x100 + i).toString(16)}::1`, e)).kind).toBe('stored')
      }
      expect(allRows().filter((row) => row.status === 'held')).toHaveLength(HELD_PER_HOUR)
      vi.setSystemTime(start + 122_000)
      const over = await submitFrom('2001:db8:aaaa:ffff::1', e, tokenInput('bad-token'))
      expect(over).toMatchObject({ kind: 'rate_limited' })
      // The place the network's oldest held frees, an hour after it arrived.
      const { retryAfter } = over as { retryAfter: number }
      expect(retryAfter > 3600 - 130 && retryAfter <= 3600 - 120, String(retryAfter)).toBe(true)
      expect(allRows()).toHaveLength(HELD_PER_HOUR)
      expect(logged().find((line) => line.outcome === 'held_cap')).toMatchObject({ heldReason: 'turnstile_invalid' })
      // Another network's visitor without JavaScript (no token) is stored, held.
      const other = tokenInput()
      expect((await submitFrom('2001:db8:bbbb::1', e, other)).kind).toBe('stored')
      expect(form.d1.row('SELECT status FROM enquiries WHERE email = ?1', other.email)).toEqual({ status: 'held' })
      // No address is stored: the network only as a keyed hash.
      expect(JSON.stringify(form.d1.query('SELECT held_network FROM enquiries'))).not.toContain('2001:db8')
      const real = tokenInput('good-token')
      expect((await submitFrom('2001:db8:cccc::1', e, real)).kind).toBe('stored')
      expect(form.posts.map((post) => post.body.email)).toEqual([real.email])
    } finally {
      vi.useRealTimers()
    }
  })

  it('held because siteverify could not be asked: neither counted nor capped', async () => {
    const at = new Date(Date.now() - 60_000).toISOString()
    const cap = { since: new Date(Date.now() - 3_600_000).toISOString(), max: 2 }
    for (let n = 0; n < 3; n++) {
      const unverified = ledgerEnquiry('unverified', { receivedAt: at })
      await storeEnquiry(form.d1.db, unverified, `key-${unverified.id}`, { heldReason: 'turnstile_unverified' })
    }
    const missing = ledgerEnquiry('missing', { receivedAt: at })
    const outcome = await storeEnquiry(form.d1.db, missing, 'key-missing', { heldReason: 'turnstile_missing', cap })
    expect(outcome).toMatchObject({ created: true })
  })

  it('counts only the last hour’s held, answers a repeat with its row, and never caps a pending enquiry', async () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString()
    const enquiry = (receivedAt: string) => ledgerEnquiry('cap', { receivedAt })
    const cap = () => ({ since: at(60), max: 3 })
    let lastHeld = ''
    // Real enquiries of the hour do not count, nor do two held 61 minutes ago.
    for (const minutes of [40, 15]) await storedEnquiry(form.d1.db, at(minutes))
    for (const minutes of [61, 61, 30, 20, 10]) {
      const held = enquiry(at(minutes))
      lastHeld = held.id
      await storeEnquiry(form.d1.db, held, `key-${held.id}`, { heldReason: 'turnstile_missing', cap: cap() })
    }
    expect(form.d1.query(`SELECT id FROM enquiries WHERE status = 'held'`)).toHaveLength(5)
    const heldCapped = () => ({ heldReason: 'turnstile_missing', cap: cap() })
    const full = await storeEnquiry(form.d1.db, enquiry(at(0)), 'key-over', heldCapped())
    expect(full).toMatchObject({ created: false, full: true })
    // The oldest held of the hour (30 minutes ago) frees its place in 30 minutes.
    const freeIn = Date.parse((full as { freeAt: string }).freeAt) - Date.now()
    expect(freeIn).toBeGreaterThan(29 * 60_000)
    expect(freeIn).toBeLessThanOrEqual(30 * 60_000)
    // A repeat of a held post (same form fill) gets its row, cap or not.
    const repeat = await storeEnquiry(form.d1.db, enquiry(at(0)), `key-${lastHeld}`, heldCapped())
    expect(repeat).toMatchObject({ created: false, record: { id: lastHeld, status: 'held' } })
    const pending = await storeEnquiry(form.d1.db, enquiry(at(0)), 'key-pending', { nextAttemptAt: at(0) })
    expect(pending).toMatchObject({ created: true, record: { status: 'pending' } })
  })
})

describe('held enquiries are purged sooner', () => {
  it(`by the scheduled run after ${HELD_RETENTION_DAYS} days, with their history; real ones are kept`, async () => {
    const now = new Date('2026-11-24T12:00:00.000Z')
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()
    const put = async (id: string, receivedAt: string, first: Parameters<typeof storeEnquiry>[3]) =>
      storeEnquiry(form.d1.db, ledgerEnquiry(id, { id, receivedAt }), `key-${id}`, first)
    await put('held-old', daysAgo(HELD_RETENTION_DAYS + 0.01), { heldReason: 'turnstile_missing' })
    await put('held-recent', daysAgo(HELD_RETENTION_DAYS - 0.01), { heldReason: 'turnstile_invalid' })
    const old = daysAgo(HELD_RETENTION_DAYS + 1)
    await put('real-old', old, { nextAttemptAt: old, leaseToken: 'lease-real-old' })
    // A real one past 14 days (failed, so not held) is kept: its period is the general one.
    const failed = { attempt: 1, attemptedAt: old, delivery: 'form-service', cause: 'upstream_status' }
    await recordAttempt(form.d1.db, 'real-old', 'lease-real-old', {
      ...failed,
      status: 'failed',
      nextAttemptAt: null,
    })
    expect(await purgeExpiredEnquiries({ ENQUIRIES: form.d1.db }, now)).toBe(1)
    expect(form.d1.query('SELECT id FROM enquiries ORDER BY id')).toEqual([{ id: 'held-recent' }, { id: 'real-old' }])
    const retention = { deleted: 1, held: 1, heldRetentionDays: HELD_RETENTION_DAYS, retentionDays: 730 }
    expect(logged().find((line) => line.event === 'retention')).toMatchObject(retention)
  })

  it('still purges, and says so, when the count table is missing (migration 0004 not applied yet)', async () => {
    const now = new Date('2026-11-24T12:00:00.000Z')
    const receivedAt = new Date(now.getTime() - (HELD_RETENTION_DAYS + 1) * 86_400_000).toISOString()
    await storeEnquiry(form.d1.db, ledgerEnquiry('held-old', { receivedAt }), 'key', {
      heldReason: 'turnstile_missing',
    })
    form.d1.sqlite.exec('DROP TABLE contact_rate')
    // The Cron Trigger's run logs the error and goes on to deliveries.
    await runScheduled({ ENQUIRIES: form.d1.db }, now)
    expect(form.d1.query('SELECT id FROM enquiries')).toEqual([])
    expect(logged().find((line) => line.event === 'retention')).toMatchObject({ deleted: 1, held: 1 })
    expect(logged().find((line) => line.event === 'retention_error')).toMatchObject({ level: 'error' })
    expect(logged().find((line) => line.event === 'contact_config')).toMatchObject({ pending: 0 })
  })

  it('is 14 days, or the general period when that is set shorter', () => {
    expect(HELD_RETENTION_DAYS).toBe(14)
    expect([undefined, '730', '7', '1000'].map(heldRetentionDays)).toEqual([14, 14, 7, 14])
  })
})
