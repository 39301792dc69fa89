// @vitest-environment node
/**
 * Floods: the rate limits counted in the enquiry database (across every Cloudflare location, and
 * the backstop when a binding is missing or throws), the hourly cap on held enquiries and the held
 * enquiries' shorter retention. D1 is a real SQLite database with the project's migrations; the
 * bindings are in-memory stand-ins (the bindings' own counting is workerd's, proven end to end in
 * tests/worker/rate-limits.test.ts and tests/worker/floods.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type EnquiryOutcome, submitEnquiry } from '~/contact/contact.server'
import {
  countPost,
  HELD_PER_HOUR,
  purgeRateCounts,
  RATE_LIMITS,
  resetLimitState,
  windowOf,
} from '~/contact/limits.server'
import type { EnquiryInput } from '~/contact/schema'
import { runScheduled } from '~/cron.server'
import type { Enquiry } from '~/ledger'
import { EMPTY_VALUES } from '~/ledger'
import { purgeExpiredEnquiries, recordAttempt, storeEnquiry } from '~/ledger/index.server'
import { HELD_RETENTION_DAYS, heldRetentionDays } from '~/ledger/retention'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { captureConsole } from '../support/console'
import { type SqliteD1, sqliteD1 } from '../support/d1-sqlite'
import { tokenEnquiryInput } from '../support/enquiry-input'
import { fakeRateLimiter, formServiceEnv, waitUntilCollector } from '../support/fake-env'

const FORM_ENDPOINT = 'https://forms.test/submit'

let d1: SqliteD1
let printed: ReturnType<typeof captureConsole>
let formPosts: string[]

beforeEach(() => {
  d1 = sqliteD1()
  resetLimitState()
  formPosts = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url === FORM_ENDPOINT) {
        formPosts.push(JSON.parse(String(init?.body)).email)
        return Response.json({ success: true })
      }
      // Siteverify: a token `good` passes, for this site's host and the form's action.
      const token = String((init?.body as FormData | undefined)?.get('response'))
      return Response.json(
        token === 'good'
          ? { success: true, action: 'contact', hostname: new URL(site.url).hostname, 'error-codes': [] }
          : { success: false, 'error-codes': ['invalid-input-response'] },
      )
    }),
  )
  printed = captureConsole()
})

afterEach(() => {
  vi.unstubAllGlobals()
  d1.close()
})

function env(extra: Record<string, unknown> = {}): WorkerEnv {
  return formServiceEnv(FORM_ENDPOINT, d1.db, extra)
}

const enquiryInput = (token?: string): EnquiryInput => tokenEnquiryInput('limits', token)

async function submit(address: string, e: WorkerEnv, data = enquiryInput()): Promise<EnquiryOutcome> {
  const work = waitUntilCollector()
  const outcome = await submitEnquiry(data, {
    requestId: 'test-request',
    env: e,
    request: new Request('https://aksharalabs.in/_serverFn/x', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': address },
    }),
    waitUntil: work.waitUntil,
  })
  await work.settle()
  return outcome
}

const stored = () => d1.query<{ status: string }>('SELECT status FROM enquiries')
const logged = () => printed.lines().map((line) => JSON.parse(line) as Record<string, unknown>)

/** The whole test inside one rate-limit window, so a minute turning over mid-test cannot reset a count. */
async function withinOneWindow() {
  const left = RATE_LIMITS.client.period * 1000 - (Date.now() % (RATE_LIMITS.client.period * 1000))
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

describe('the limits, counted in the enquiry database', () => {
  it('with no rate limiter bound, still refuses the 6th post from one /64 in a minute, and the 11th from one /48', async () => {
    await withinOneWindow()
    const e = env()
    const outcomes: string[] = []
    for (let i = 1; i <= RATE_LIMITS.client.limit + 1; i++) outcomes.push((await submit(`2001:db8:1:1::${i}`, e)).kind)
    expect(outcomes).toEqual([...Array(RATE_LIMITS.client.limit).fill('stored'), 'rate_limited'])
    // Other /64s of the same /48 share its limit, which the refused post counted against too.
    const left = RATE_LIMITS.network.limit - RATE_LIMITS.client.limit - 1
    for (let i = 2; i <= left + 3; i++) outcomes.push((await submit(`2001:db8:1:${i}::1`, e)).kind)
    expect(outcomes.slice(RATE_LIMITS.client.limit + 1)).toEqual([
      ...Array(left).fill('stored'),
      'rate_limited',
      'rate_limited',
    ])
    // Another /48 is not limited by it.
    expect((await submit('2001:db8:2:1::1', e)).kind).toBe('stored')
    expect(stored()).toHaveLength(RATE_LIMITS.network.limit)
    expect(formPosts).toHaveLength(RATE_LIMITS.network.limit)
    expect(logged().filter((line) => line.missing === 'CONTACT_RATE_LIMITER')).not.toHaveLength(0)
    expect(logged().find((line) => line.outcome === 'rate_limited')).toMatchObject({ by: 'store', limit: 'client' })
  })

  it('a limiter that throws changes nothing: the database still counts', async () => {
    await withinOneWindow()
    const throwing = {
      limit: async () => {
        throw new Error('limiter down')
      },
    }
    const e = env({ CONTACT_RATE_LIMITER: throwing, CONTACT_NETWORK_RATE_LIMITER: throwing })
    const outcomes: string[] = []
    for (let i = 0; i <= RATE_LIMITS.client.limit; i++) outcomes.push((await submit('203.0.113.9', e)).kind)
    expect(outcomes.at(-1)).toBe('rate_limited')
    expect(stored()).toHaveLength(RATE_LIMITS.client.limit)
    // IPv4: the /24 is the network (the refused post counted against it too).
    for (let i = 10; i < 20; i++) outcomes.push((await submit(`203.0.113.${i}`, e)).kind)
    expect(stored()).toHaveLength(RATE_LIMITS.network.limit - 1)
    expect(logged().filter((line) => line.cause === 'rate_limiter_error')).not.toHaveLength(0)
  })

  it('holds across locations: two locations’ bindings each let a client’s posts through, the database stores 5 in all', async () => {
    await withinOneWindow()
    const here = env({ CONTACT_RATE_LIMITER: fakeRateLimiter(5), CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(10) })
    const there = env({ CONTACT_RATE_LIMITER: fakeRateLimiter(5), CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(10) })
    const outcomes: string[] = []
    for (let i = 0; i < 5; i++) {
      outcomes.push((await submit('198.51.100.7', here)).kind)
      outcomes.push((await submit('::ffff:198.51.100.7', there)).kind)
    }
    expect(outcomes.filter((kind) => kind === 'stored')).toHaveLength(RATE_LIMITS.client.limit)
    expect(stored()).toHaveLength(RATE_LIMITS.client.limit)
  })

  it('a post the bindings refuse never reaches the database', async () => {
    const e = env({ CONTACT_RATE_LIMITER: fakeRateLimiter(0), CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(10) })
    expect((await submit('203.0.113.50', e)).kind).toBe('rate_limited')
    expect(d1.executed).toEqual([])
  })

  it('stores no address: keyed hashes only, under a key made for the window and deleted with its counts', async () => {
    const keys = { client: '2001:db8:9:9::/64', network: '2001:db8:9::/48' }
    const minute = 60_000 * 29_000_000
    expect(await countPost(d1.db, keys, minute + 1_000)).toEqual({ ok: true })
    const rows = d1.query<{ window_start: number; key_hash: string; count: number }>(
      'SELECT window_start, key_hash, count FROM contact_rate ORDER BY key_hash',
    )
    expect(rows).toHaveLength(2)
    expect(rows.every((row) => row.window_start === windowOf(minute) && row.count === 1)).toBe(true)
    const everything = JSON.stringify([...rows, ...d1.query('SELECT * FROM contact_rate_keys')])
    for (const part of ['2001', 'db8', '/64', '/48']) expect(everything).not.toContain(part)

    // The next window: another key, so the same client hashes to something else, and the past
    // window's counts and key are gone.
    expect(await countPost(d1.db, keys, minute + 61_000)).toEqual({ ok: true })
    const next = d1.query<{ window_start: number; key_hash: string }>('SELECT window_start, key_hash FROM contact_rate')
    expect(next.map((row) => row.window_start)).toEqual([windowOf(minute) + 1, windowOf(minute) + 1])
    expect(next.map((row) => row.key_hash).some((hash) => rows.some((old) => old.key_hash === hash))).toBe(false)
    expect(d1.query('SELECT window_start FROM contact_rate_keys')).toEqual([{ window_start: windowOf(minute) + 1 }])

    // The Cron Trigger's purge clears a quiet window too.
    expect(await purgeRateCounts(d1.db, minute + 121_000)).toBe(2)
    expect(d1.query('SELECT * FROM contact_rate')).toEqual([])
    expect(d1.query('SELECT * FROM contact_rate_keys')).toEqual([])
  })

  it('a refused network writes nothing more: its count stops one past the limit, and its clients add no rows', async () => {
    const now = 60_000 * 29_000_100 + 5_000
    for (let i = 0; i < RATE_LIMITS.network.limit; i++)
      expect(await countPost(d1.db, { client: `c${i}`, network: 'n' }, now)).toEqual({ ok: true })
    const rowsBefore = d1.query('SELECT * FROM contact_rate').length
    for (let i = 0; i < 50; i++)
      expect(await countPost(d1.db, { client: `flood-${i}`, network: 'n' }, now)).toEqual({
        ok: false,
        limit: 'network',
      })
    expect(d1.query('SELECT * FROM contact_rate')).toHaveLength(rowsBefore)
    expect(d1.query<{ max: number }>('SELECT MAX(count) AS max FROM contact_rate')[0]?.max).toBe(
      RATE_LIMITS.network.limit + 1,
    )
  })

  it('when the database cannot count (its table not migrated), the isolate’s memory does, and one line says so', async () => {
    await withinOneWindow()
    d1.sqlite.exec('DROP TABLE contact_rate')
    const e = env()
    const outcomes: string[] = []
    for (let i = 0; i <= RATE_LIMITS.client.limit; i++) outcomes.push((await submit('2001:db8:77:1::1', e)).kind)
    expect(outcomes).toEqual([...Array(RATE_LIMITS.client.limit).fill('stored'), 'rate_limited'])
    const lines = logged().filter((line) => line.cause === 'rate_count_error')
    expect(lines).toHaveLength(RATE_LIMITS.client.limit)
    expect(lines[0]).toMatchObject({ level: 'error', event: 'contact_config', errorName: 'Error' })
    expect(JSON.stringify(lines)).not.toContain('2001:db8')
  })
})

describe('the hourly cap on held enquiries', () => {
  const turnstileOn = () => env({ TURNSTILE_SITE_KEY: 'site-key', TURNSTILE_SECRET_KEY: 'secret' })

  it(`keeps ${HELD_PER_HOUR} held an hour per network; beyond, that network's tokenless post is refused (429, not stored), another network's is stored, and one with a valid token is delivered`, async () => {
    const e = turnstileOn()
    // One /48, twenty /64s in it, over two minutes (the flood limit lets 10 a minute from a network).
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    try {
      for (let i = 0; i < HELD_PER_HOUR; i++) {
        vi.setSystemTime(start + Math.floor(i / 10) * 61_000)
        expect((await submit(`2001:db8:aaaa:${(0x100 + i).toString(16)}::1`, e)).kind).toBe('stored')
      }
      expect(stored().filter((row) => row.status === 'held')).toHaveLength(HELD_PER_HOUR)
      vi.setSystemTime(start + 122_000)
      const over = await submit('2001:db8:aaaa:ffff::1', e, enquiryInput('bad-token'))
      expect(over).toMatchObject({ kind: 'rate_limited' })
      // The place the network's oldest held frees, an hour after it arrived.
      expect((over as { retryAfter: number }).retryAfter).toBeGreaterThan(3600 - 130)
      expect((over as { retryAfter: number }).retryAfter).toBeLessThanOrEqual(3600 - 120)
      expect(stored()).toHaveLength(HELD_PER_HOUR)
      expect(logged().find((line) => line.outcome === 'held_cap')).toMatchObject({ heldReason: 'turnstile_invalid' })
      // Another network's visitor without JavaScript (no token) is stored, held.
      const other = enquiryInput()
      expect((await submit('2001:db8:bbbb::1', e, other)).kind).toBe('stored')
      expect(d1.row('SELECT status FROM enquiries WHERE email = ?1', other.email)).toEqual({ status: 'held' })
      // No address is stored: the network only as a keyed hash.
      expect(JSON.stringify(d1.query('SELECT held_network FROM enquiries'))).not.toContain('2001:db8')
      const real = enquiryInput('good')
      expect((await submit('2001:db8:cccc::1', e, real)).kind).toBe('stored')
      expect(d1.row('SELECT status FROM enquiries WHERE email = ?1', real.email)).toEqual({ status: 'delivered' })
      expect(formPosts).toEqual([real.email])
    } finally {
      vi.useRealTimers()
    }
  })

  it('held because siteverify could not be asked: neither counted nor capped', async () => {
    const at = new Date(Date.now() - 60_000).toISOString()
    const cap = { since: new Date(Date.now() - 3_600_000).toISOString(), max: 2 }
    for (let n = 0; n < 3; n++) {
      const unverified: Enquiry = {
        ...EMPTY_VALUES,
        id: `unverified-${n}`,
        receivedAt: at,
        name: 'N',
        email: `unverified-${n}@example.com`,
        company: '',
        subject: 'general',
        subjectLabel: 'General',
        message: 'm',
      }
      await storeEnquiry(d1.db, unverified, `key-${unverified.id}`, { heldReason: 'turnstile_unverified' })
    }
    const missing: Enquiry = {
      ...EMPTY_VALUES,
      id: 'missing-1',
      receivedAt: at,
      name: 'N',
      email: 'missing-1@example.com',
      company: '',
      subject: 'general',
      subjectLabel: 'General',
      message: 'm',
    }
    const outcome = await storeEnquiry(d1.db, missing, 'key-missing-1', { heldReason: 'turnstile_missing', cap })
    expect(outcome).toMatchObject({ created: true })
  })

  it('counts only the last hour’s held, answers a repeat with its row, and never caps a pending enquiry', async () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString()
    let n = 0
    const enquiry = (receivedAt: string): Enquiry => {
      n++
      return {
        ...EMPTY_VALUES,
        id: `cap-${n}`,
        receivedAt,
        name: 'N',
        email: `cap-${n}@example.com`,
        company: '',
        subject: 'general',
        subjectLabel: 'General',
        message: 'm',
      }
    }
    const cap = () => ({ since: at(60), max: 3 })
    // Real enquiries of the hour do not count, nor do two held 61 minutes ago.
    for (const minutes of [40, 15]) {
      const real = enquiry(at(minutes))
      await storeEnquiry(d1.db, real, `key-${real.id}`, { nextAttemptAt: at(minutes) })
    }
    for (const minutes of [61, 61, 30, 20, 10]) {
      const held = enquiry(at(minutes))
      await storeEnquiry(d1.db, held, `key-${held.id}`, { heldReason: 'turnstile_missing', cap: cap() })
    }
    expect(d1.query(`SELECT id FROM enquiries WHERE status = 'held'`)).toHaveLength(5)
    const full = await storeEnquiry(d1.db, enquiry(at(0)), 'key-over', { heldReason: 'turnstile_missing', cap: cap() })
    expect(full).toMatchObject({ created: false, full: true })
    // The oldest held of the hour (30 minutes ago) frees its place in 30 minutes.
    const freeIn = Date.parse((full as { freeAt: string }).freeAt) - Date.now()
    expect(freeIn).toBeGreaterThan(29 * 60_000)
    expect(freeIn).toBeLessThanOrEqual(30 * 60_000)
    // A repeat of a held post (same form fill) gets its row, cap or not.
    const repeat = await storeEnquiry(d1.db, enquiry(at(0)), 'key-cap-5', {
      heldReason: 'turnstile_missing',
      cap: cap(),
    })
    expect(repeat).toMatchObject({ created: false, record: { id: 'cap-5', status: 'held' } })
    // Pending enquiries are not capped.
    const pending = await storeEnquiry(d1.db, enquiry(at(0)), 'key-pending', { nextAttemptAt: at(0) })
    expect(pending).toMatchObject({ created: true, record: { status: 'pending' } })
  })
})

describe('held enquiries are purged sooner', () => {
  it(`by the scheduled run after ${HELD_RETENTION_DAYS} days, with their history; real ones are kept`, async () => {
    const now = new Date('2026-11-24T12:00:00.000Z')
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()
    const put = async (
      id: string,
      receivedAt: string,
      first: { heldReason: string } | { nextAttemptAt: string; leaseToken?: string },
    ) =>
      storeEnquiry(
        d1.db,
        {
          ...EMPTY_VALUES,
          id,
          receivedAt,
          name: 'N',
          email: `${id}@example.com`,
          company: '',
          subject: 'general',
          subjectLabel: 'General',
          message: 'm',
        },
        `key-${id}`,
        first,
      )
    await put('held-old', daysAgo(HELD_RETENTION_DAYS + 0.01), { heldReason: 'turnstile_missing' })
    await put('held-recent', daysAgo(HELD_RETENTION_DAYS - 0.01), { heldReason: 'turnstile_invalid' })
    await put('real-old', daysAgo(HELD_RETENTION_DAYS + 1), {
      nextAttemptAt: daysAgo(HELD_RETENTION_DAYS + 1),
      leaseToken: 'lease-real-old',
    })
    // A real one past 14 days (failed, so not held) is kept: its period is the general one.
    await recordAttempt(d1.db, 'real-old', 'lease-real-old', {
      attempt: 1,
      attemptedAt: daysAgo(HELD_RETENTION_DAYS + 1),
      delivery: 'form-service',
      status: 'failed',
      cause: 'upstream_status',
      nextAttemptAt: null,
    })
    expect(await purgeExpiredEnquiries({ ENQUIRIES: d1.db }, now)).toBe(1)
    expect(d1.query('SELECT id FROM enquiries ORDER BY id')).toEqual([{ id: 'held-recent' }, { id: 'real-old' }])
    expect(logged().find((line) => line.event === 'retention')).toMatchObject({
      deleted: 1,
      held: 1,
      heldRetentionDays: HELD_RETENTION_DAYS,
      retentionDays: 730,
    })
  })

  it('still purges, and says so, when the count table is missing (migration 0004 not applied yet)', async () => {
    const now = new Date('2026-11-24T12:00:00.000Z')
    await storeEnquiry(
      d1.db,
      {
        ...EMPTY_VALUES,
        id: 'held-old',
        receivedAt: new Date(now.getTime() - (HELD_RETENTION_DAYS + 1) * 86_400_000).toISOString(),
        name: 'N',
        email: 'held-old@example.com',
        company: '',
        subject: 'general',
        subjectLabel: 'General',
        message: 'm',
      },
      'key-held-old',
      { heldReason: 'turnstile_missing' },
    )
    d1.sqlite.exec('DROP TABLE contact_rate')
    // The Cron Trigger's run logs the error and goes on to deliveries.
    await runScheduled({ ENQUIRIES: d1.db }, now)
    expect(d1.query('SELECT id FROM enquiries')).toEqual([])
    expect(logged().find((line) => line.event === 'retention')).toMatchObject({ deleted: 1, held: 1 })
    expect(logged().find((line) => line.event === 'retention_error')).toMatchObject({ level: 'error' })
    expect(logged().find((line) => line.event === 'contact_config')).toMatchObject({ pending: 0 })
  })

  it('is 14 days, or the general period when that is set shorter', () => {
    expect(HELD_RETENTION_DAYS).toBe(14)
    expect(heldRetentionDays(undefined)).toBe(14)
    expect(heldRetentionDays('730')).toBe(14)
    expect(heldRetentionDays('7')).toBe(7)
    expect(heldRetentionDays('1000')).toBe(14)
  })
})
