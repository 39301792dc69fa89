import { answerResponse } from '~/server/answer'
import { bounded, database, LedgerError } from '~/server/d1.server'
import { log, requestIdFor } from '~/server/log.server'
import { type WorkerEnv, workerRuntime } from '~/server/runtime.server'

/** Flood limits (docs/contact.md): the bindings, then D1, else memory, never none; no address is stored. */

/** From wrangler.toml, at build time; both limiters share the period. */
export const RATE_LIMITS = __CONTACT_RATE_LIMITS__
const PERIOD_MS = RATE_LIMITS.client.period * 1000

export const RATE_LIMIT_PERIOD_SECONDS: number = __CONTACT_RATE_LIMIT_PERIOD__

/** Per network: one network's tokenless posts must not turn away every visitor without JavaScript. */
export const HELD_PER_HOUR = 20

/** Keeps a flood from many networks inside D1's 500 MB; a siteverify outage's holds do not count. */
export const HELD_CEILING_PER_HOUR = 50

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10)

/** Migration 0012. Hashed under today's and yesterday's keys, so an hour spanning midnight counts whole. */
export async function heldNetwork(
  db: D1Database | undefined,
  network: string,
  now = Date.now(),
): Promise<{ store: string; match: readonly [string, string] }> {
  const d1 = database(db)
  const today = utcDay(now)
  const yesterday = utcDay(now - 86_400_000)
  const [, , read] = await bounded(
    d1.batch([
      d1.prepare('DELETE FROM held_network_keys WHERE day < ?1').bind(yesterday),
      d1
        .prepare('INSERT INTO held_network_keys (day, secret) VALUES (?1, ?2) ON CONFLICT DO NOTHING')
        .bind(today, base64url(crypto.getRandomValues(new Uint8Array(32)))),
      d1.prepare('SELECT day, secret FROM held_network_keys WHERE day IN (?1, ?2)').bind(today, yesterday),
    ]),
  )
  const keys = new Map(((read?.results ?? []) as { day: string; secret: string }[]).map((row) => [row.day, row.secret]))
  const hashUnder = async (secret: string) => {
    const key = await crypto.subtle.importKey('raw', fromBase64url(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ])
    return keyHash(key, 'network', network)
  }
  const todays = keys.get(today)
  if (!todays) throw new LedgerError('store_error', 'NoHeldNetworkKey')
  const store = await hashUnder(todays)
  const before = keys.get(yesterday)
  return { store, match: [store, before ? await hashUnder(before) : store] }
}

export interface ClientKeys {
  client: string
  network: string
}

export function clientAddress(request: Request): string {
  return request.headers.get('CF-Connecting-IP')?.trim() || 'unknown'
}

/** An IPv6 client by its /64: a subscriber holds a whole /64 and could otherwise rotate through it. */
export function rateLimitKey(address: string): string {
  const ipv4 = mappedIpv4(address)
  if (ipv4 !== null) return ipv4
  const prefix = ipv6Prefix(address)
  return prefix ? `${prefix.join(':')}::/64` : address
}

/** IPv6 /48: a free tunnel broker hands out a /48 (65,536 /64s). IPv4 /24: the smallest routed block. */
export function networkKey(address: string): string {
  const ipv4 = mappedIpv4(address)
  if (ipv4 !== null) return `${ipv4.split('.').slice(0, 3).join('.')}.0/24`
  const prefix = ipv6Prefix(address)
  return prefix ? `${prefix.slice(0, 3).join(':')}::/48` : address
}

function mappedIpv4(address: string): string | null {
  if (!address.includes(':')) return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(address) ? address : null
  const mapped = address.toLowerCase().match(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/)
  return mapped?.[1] ?? null
}

function ipv6Prefix(address: string): string[] | null {
  if (!address.includes(':')) return null
  const halves = (address.split('%')[0] ?? '').toLowerCase().split('::')
  if (halves.length > 2) return null
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : [])
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) fills two groups; it only ever lies in the last 64 bits.
  const width = (groups: string[]) => groups.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0)
  const head = groupsOf(halves[0])
  const tail = groupsOf(halves[1])
  const groups =
    halves.length === 2 ? [...head, ...Array(Math.max(0, 8 - width(head) - width(tail))).fill('0'), ...tail] : head
  const prefix = groups.slice(0, 4).map((group) => {
    const value = Number.parseInt(group, 16)
    return Number.isFinite(value) ? value.toString(16) : '0'
  })
  while (prefix.length < 4) prefix.push('0')
  return prefix
}

export function clientKeys(request: Request): ClientKeys {
  const address = clientAddress(request)
  return { client: rateLimitKey(address), network: networkKey(address) }
}

/** A binding that is missing or throws says nothing (one log line): `countPost` still limits the post. */
export async function isRateLimited(env: WorkerEnv, keys: ClientKeys, requestId: string): Promise<boolean> {
  const limiters = [
    ['CONTACT_NETWORK_RATE_LIMITER', env.CONTACT_NETWORK_RATE_LIMITER, keys.network],
    ['CONTACT_RATE_LIMITER', env.CONTACT_RATE_LIMITER, keys.client],
  ] as const
  for (const [name, limiter, key] of limiters) {
    if (!limiter) {
      log('error', {
        event: 'contact_config',
        requestId,
        missing: name,
        message: 'No rate limiter bound: the enquiry database counts posts instead',
      })
      continue
    }
    try {
      const { success } = await limiter.limit({ key })
      if (!success) return true
    } catch (error) {
      log('error', {
        event: 'contact_config',
        requestId,
        cause: 'rate_limiter_error',
        limiter: name,
        errorName: (error as Error)?.name,
      })
    }
  }
  return false
}

/** `inMemory`: why D1 could not count it. */
export type LimitVerdict = { ok: true; inMemory?: string } | { ok: false; limit: 'client' | 'network' }

/** Aligned to the wall clock, as the bindings' windows are. */
export function windowOf(now: number): number {
  return Math.floor(now / PERIOD_MS)
}

// The key, not a promise: workerd lets no request wait on another's work, so the first to finish keeps it.
let windowKey: { window: number; key: CryptoKey } | null = null

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

/** Made by the window's first post, in any isolate; the same batch deletes past windows' counts and keys. */
async function keyFor(db: D1Database, window: number): Promise<CryptoKey> {
  if (windowKey?.window === window) return windowKey.key
  const fresh = base64url(crypto.getRandomValues(new Uint8Array(32)))
  const [, , , read] = await bounded(
    db.batch([
      db.prepare('DELETE FROM contact_rate WHERE window_start < ?1').bind(window),
      db.prepare('DELETE FROM contact_rate_keys WHERE window_start < ?1').bind(window),
      db
        .prepare('INSERT INTO contact_rate_keys (window_start, secret) VALUES (?1, ?2) ON CONFLICT DO NOTHING')
        .bind(window, fresh),
      db.prepare('SELECT secret FROM contact_rate_keys WHERE window_start = ?1').bind(window),
    ]),
  )
  const secret = (read?.results?.[0] as { secret?: string } | undefined)?.secret
  if (!secret) throw new LedgerError('store_error', 'NoWindowKey')
  const key = await crypto.subtle.importKey('raw', fromBase64url(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  if (!windowKey || windowKey.window <= window) windowKey = { window, key }
  return key
}

async function keyHash(key: CryptoKey, kind: keyof ClientKeys, value: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${kind} ${value}`))
  return base64url(new Uint8Array(mac).slice(0, 16))
}

/** One transaction; a count stops one past its limit, so a refused flood writes nothing more. */
async function countInStore(db: D1Database, keys: ClientKeys, now: number): Promise<LimitVerdict> {
  const window = windowOf(now)
  const key = await keyFor(db, window)
  const [network, client] = await Promise.all([
    keyHash(key, 'network', keys.network),
    keyHash(key, 'client', keys.client),
  ])
  const [counted, clientCounted] = await bounded(
    db.batch([
      db
        .prepare(
          `INSERT INTO contact_rate (window_start, key_hash, count) VALUES (?1, ?2, 1)
           ON CONFLICT (window_start, key_hash) DO UPDATE SET count = count + 1 WHERE count <= ?3
           RETURNING count`,
        )
        .bind(window, network, RATE_LIMITS.network.limit),
      db
        .prepare(
          `INSERT INTO contact_rate (window_start, key_hash, count)
           SELECT ?1, ?2, 1 WHERE (SELECT count FROM contact_rate WHERE window_start = ?1 AND key_hash = ?3) <= ?4
           ON CONFLICT (window_start, key_hash) DO UPDATE SET count = count + 1 WHERE count <= ?5
           RETURNING count`,
        )
        .bind(window, client, network, RATE_LIMITS.network.limit, RATE_LIMITS.client.limit),
    ]),
  )
  const networkCount = (counted?.results?.[0] as { count?: number } | undefined)?.count
  if (networkCount === undefined || networkCount > RATE_LIMITS.network.limit) return { ok: false, limit: 'network' }
  const clientCount = (clientCounted?.results?.[0] as { count?: number } | undefined)?.count
  if (clientCount === undefined || clientCount > RATE_LIMITS.client.limit) return { ok: false, limit: 'client' }
  return { ok: true }
}

const memory = { window: -1, counts: new Map<string, number>() }
const MEMORY_KEYS_MAX = 50_000

function countInMemory(keys: ClientKeys, now: number): LimitVerdict {
  const window = windowOf(now)
  if (memory.window !== window || memory.counts.size > MEMORY_KEYS_MAX) {
    memory.window = window
    memory.counts.clear()
  }
  const bump = (name: string, limit: number) => {
    const count = (memory.counts.get(name) ?? 0) + 1
    if (count <= limit + 1) memory.counts.set(name, count)
    return count <= limit
  }
  if (!bump(`network ${keys.network}`, RATE_LIMITS.network.limit)) return { ok: false, limit: 'network' }
  if (!bump(`client ${keys.client}`, RATE_LIMITS.client.limit)) return { ok: false, limit: 'client' }
  return { ok: true }
}

/** What D1 cannot count, memory does; a D1 timeout throws (`store_timeout`): it could not store the post. */
export async function countPost(db: D1Database | undefined, keys: ClientKeys, now = Date.now()): Promise<LimitVerdict> {
  try {
    return await bounded(countInStore(database(db), keys, now))
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'store_timeout') throw error
    const verdict = countInMemory(keys, now)
    const why = error instanceof LedgerError ? (error.errorName ?? error.code) : ((error as Error)?.name ?? 'unknown')
    return verdict.ok ? { ok: true, inMemory: why } : verdict
  }
}

/** The form's counters, for the receipt's withdraw link, which a stranger can post to. Null, or seconds to wait. */
export async function floodLimited(env: WorkerEnv, request: Request, requestId: string): Promise<number | null> {
  const keys = clientKeys(request)
  if (await isRateLimited(env, keys, requestId)) return RATE_LIMIT_PERIOD_SECONDS
  const counted = await countPost(env.ENQUIRIES, keys)
  return counted.ok ? null : RATE_LIMIT_PERIOD_SECONDS
}

/** A link's POST a stranger can repeat (withdraw, confirm, leave): handled under the form's limits, else 429. */
export function underFloodLimits(event: string, handle: (request: Request, env: WorkerEnv) => Promise<Response>) {
  return async ({ request }: { request: Request }): Promise<Response> => {
    const { env } = await workerRuntime()
    const requestId = requestIdFor(request)
    const retryAfter = await floodLimited(env, request, requestId).catch(() => null)
    if (retryAfter === null) return handle(request, env)
    log('warn', { event, requestId, outcome: 'rate_limited' })
    return answerResponse(
      { status: 429, message: 'Too many requests from your network. Try again in a minute.' },
      { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' },
    )
  }
}

/** The cron's part (every minute): no count outlives its window by more than a minute. */
export async function purgeRateCounts(db: D1Database | undefined, now = Date.now()): Promise<number> {
  const d1 = database(db)
  const before = windowOf(now)
  const [counts] = await bounded(
    d1.batch([
      d1.prepare('DELETE FROM contact_rate WHERE window_start < ?1').bind(before),
      d1.prepare('DELETE FROM contact_rate_keys WHERE window_start < ?1').bind(before),
    ]),
  )
  return counts?.meta?.changes ?? 0
}

/** For tests: forget the cached window key and the memory counts, as a new isolate would. */
export function resetLimitState(): void {
  windowKey = null
  memory.window = -1
  memory.counts.clear()
}
