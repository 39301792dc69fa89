// @vitest-environment node
// The rate limits counted in the enquiry database: every location, a missing or throwing binding, hashes only.
import { describe, expect, it } from 'vitest'
import { countPost, purgeRateCounts, RATE_LIMITS, windowOf } from '~/contact/limits.server'
import { fakeRateLimiter } from '../support/fake-env'
import { allRows, envUnbound, form, logged, setUpSubmitHarness, submitFrom } from '../support/submit-harness'

setUpSubmitHarness()

async function withinOneWindow() {
  const left = RATE_LIMITS.client.period * 1000 - (Date.now() % (RATE_LIMITS.client.period * 1000))
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

describe('the limits, counted in the enquiry database', () => {
  it('with no rate limiter bound, still refuses the 6th post from one /64 in a minute, and the 11th from one /48', async () => {
    await withinOneWindow()
    const e = envUnbound()
    const outcomes: string[] = []
    for (let i = 1; i <= RATE_LIMITS.client.limit + 1; i++)
      outcomes.push((await submitFrom(`2001:db8:1:1::${i}`, e)).kind)
    expect(outcomes).toEqual([...Array(RATE_LIMITS.client.limit).fill('stored'), 'rate_limited'])
    // Other /64s of the same /48 share its limit, which the refused post counted against too.
    const left = RATE_LIMITS.network.limit - RATE_LIMITS.client.limit - 1
    for (let i = 2; i <= left + 3; i++) outcomes.push((await submitFrom(`2001:db8:1:${i}::1`, e)).kind)
    const after = [...Array(left).fill('stored'), 'rate_limited', 'rate_limited']
    expect(outcomes.slice(RATE_LIMITS.client.limit + 1)).toEqual(after)
    // Another /48 is not limited by it.
    expect((await submitFrom('2001:db8:2:1::1', e)).kind).toBe('stored')
    expect(allRows()).toHaveLength(RATE_LIMITS.network.limit)
    expect(form.posts).toHaveLength(RATE_LIMITS.network.limit)
    const missing = logged().find((line) => line.missing === 'CONTACT_RATE_LIMITER')
    expect(missing).toMatchObject({ event: 'contact_config', level: 'error' })
    expect(logged().find((line) => line.outcome === 'rate_limited')).toMatchObject({
      by: 'store',
      limit: 'client',
    })
  })

  it('a limiter that throws changes nothing: the database still counts', async () => {
    await withinOneWindow()
    const throwing = { limit: () => Promise.reject(new Error('limiter down')) }
    const e = envUnbound({ CONTACT_RATE_LIMITER: throwing, CONTACT_NETWORK_RATE_LIMITER: throwing })
    const outcomes: string[] = []
    for (let i = 0; i <= RATE_LIMITS.client.limit; i++) outcomes.push((await submitFrom('203.0.113.9', e)).kind)
    expect(outcomes.at(-1)).toBe('rate_limited')
    expect(allRows()).toHaveLength(RATE_LIMITS.client.limit)
    // IPv4: the /24 is the network (the refused post counted against it too).
    for (let i = 10; i < 20; i++) outcomes.push((await submitFrom(`203.0.113.${i}`, e)).kind)
    expect(allRows()).toHaveLength(RATE_LIMITS.network.limit - 1)
    expect(logged().filter((line) => line.cause === 'rate_limiter_error')).not.toHaveLength(0)
  })

  it('holds across locations: two locations’ bindings each let a client’s posts through, the database stores 5 in all', async () => {
    await withinOneWindow()
    const location = () =>
      envUnbound({
        CONTACT_RATE_LIMITER: fakeRateLimiter(5),
        CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(10),
      })
    const [here, there] = [location(), location()]
    const outcomes: string[] = []
    for (let i = 0; i < 5; i++) {
      outcomes.push((await submitFrom('198.51.100.7', here)).kind)
      outcomes.push((await submitFrom('::ffff:198.51.100.7', there)).kind)
    }
    expect(outcomes.filter((kind) => kind === 'stored')).toHaveLength(RATE_LIMITS.client.limit)
  })

  it('a post the bindings refuse never reaches the database', async () => {
    const e = envUnbound({
      CONTACT_RATE_LIMITER: fakeRateLimiter(0),
      CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(10),
    })
    expect((await submitFrom('203.0.113.50', e)).kind).toBe('rate_limited')
    expect(form.d1.executed).toEqual([])
  })

  it('stores no address: keyed hashes only, under a key made for the window and deleted with its counts', async () => {
    const keys = { client: '2001:db8:9:9::/64', network: '2001:db8:9::/48' }
    const minute = 60_000 * 29_000_000
    expect(await countPost(form.d1.db, keys, minute + 1_000)).toEqual({ ok: true })
    const rows = form.d1.query<{ window_start: number; key_hash: string; count: number }>(
      'SELECT window_start, key_hash, count FROM contact_rate ORDER BY key_hash',
    )
    expect(rows).toHaveLength(2)
    expect(rows.every((row) => row.window_start === windowOf(minute) && row.count === 1)).toBe(true)
    const everything = JSON.stringify([...rows, ...form.d1.query('SELECT * FROM contact_rate_keys')])
    for (const part of ['2001', 'db8', '/64', '/48']) expect(everything).not.toContain(part)

    // The next window: another key, so the same client hashes otherwise; the past window's counts and key are gone.
    expect(await countPost(form.d1.db, keys, minute + 61_000)).toEqual({ ok: true })
    const next = form.d1.query<{ window_start: number; key_hash: string }>('SELECT * FROM contact_rate')
    expect(next.map((row) => row.window_start)).toEqual([windowOf(minute) + 1, windowOf(minute) + 1])
    expect(next.map((row) => row.key_hash).some((hash) => rows.some((old) => old.key_hash === hash))).toBe(false)
    expect(form.d1.query('SELECT window_start FROM contact_rate_keys')).toEqual([
      { window_start: windowOf(minute) + 1 },
    ])

    // The Cron Trigger's purge clears a quiet window too.
    expect(await purgeRateCounts(form.d1.db, minute + 121_000)).toBe(2)
    expect(form.d1.query('SELECT * FROM contact_rate')).toEqual([])
    expect(form.d1.query('SELECT * FROM contact_rate_keys')).toEqual([])
  })

  it('a refused network writes nothing more: its count stops one past the limit, and its clients add no rows', async () => {
    const now = 60_000 * 29_000_100 + 5_000
    for (let i = 0; i < RATE_LIMITS.network.limit; i++)
      expect(await countPost(form.d1.db, { client: `c${i}`, network: 'n' }, now)).toEqual({ ok: true })
    const rowsBefore = form.d1.query('SELECT * FROM contact_rate').length
    const refused = { ok: false, limit: 'network' }
    for (let i = 0; i < 50; i++)
      expect(await countPost(form.d1.db, { client: `flood-${i}`, network: 'n' }, now)).toEqual(refused)
    expect(form.d1.query('SELECT * FROM contact_rate')).toHaveLength(rowsBefore)
    const [top] = form.d1.query<{ max: number }>('SELECT MAX(count) AS max FROM contact_rate')
    expect(top?.max).toBe(RATE_LIMITS.network.limit + 1)
  })

  it('when the database cannot count (its table not migrated), the isolate’s memory does, and one line says so', async () => {
    await withinOneWindow()
    form.d1.sqlite.exec('DROP TABLE contact_rate')
    const e = envUnbound()
    const outcomes: string[] = []
    for (let i = 0; i <= RATE_LIMITS.client.limit; i++) outcomes.push((await submitFrom('2001:db8:77:1::1', e)).kind)
    expect(outcomes).toEqual([...Array(RATE_LIMITS.client.limit).fill('stored'), 'rate_limited'])
    const lines = logged().filter((line) => line.cause === 'rate_count_error')
    expect(lines).toHaveLength(RATE_LIMITS.client.limit)
    expect(lines[0]).toMatchObject({ level: 'error', event: 'contact_config', errorName: 'Error' })
    expect(JSON.stringify(lines)).not.toContain('2001:db8')
  })
})
