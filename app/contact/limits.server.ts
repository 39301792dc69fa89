import { bounded, database, StoreError } from '~/server/d1.server'
import { log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'

/**
 * How much one client, one network and Turnstile-less strangers can put in the enquiry store
 * (docs/contact.md, "Floods"). Three lines, each behind the one before:
 *
 * 1. The Workers rate-limit bindings (`isRateLimited`): per client (an IPv4 address, an IPv6 /64)
 *    and per network (an IPv4 /24, an IPv6 /48), in memory at each Cloudflare location. They
 *    refuse most of a flood before it touches the database, but each location counts on its own.
 * 2. `countPost`: the same two limits, counted in D1, one database for every location: the limit
 *    that holds when a flood is spread over many, and the backstop when a binding is missing.
 * 3. When the count in D1 fails (a table not migrated yet, an error), a count in this isolate's
 *    memory: never "no limit".
 *
 * No address is stored: a key is counted under an HMAC-SHA-256 whose key is random, made for one
 * window and deleted with that window's counts.
 */

/** The bindings' limits and period, from wrangler.toml at build time (both limiters share the period). */
export const RATE_LIMITS = __CONTACT_RATE_LIMITS__
const PERIOD_MS = RATE_LIMITS.client.period * 1000

/** Seconds a rate-limited client is asked to wait: the limiters' period. */
export const RATE_LIMIT_PERIOD_SECONDS: number = __CONTACT_RATE_LIMIT_PERIOD__

/**
 * The most enquiries kept as held (Turnstile on, no valid token) that arrived in the last hour.
 * Beyond it a post without a valid token is not stored: the visitor gets the failure message with
 * every field kept. A visitor whose token is valid is never held, so never counted here.
 */
export const HELD_PER_HOUR = 20

/** The keys a post is counted under. */
export interface ClientKeys {
  client: string
  network: string
}

/** The client's address as Cloudflare reports it (`CF-Connecting-IP`). */
export function clientAddress(request: Request): string {
  return request.headers.get('CF-Connecting-IP')?.trim() || 'unknown'
}

/**
 * The rate limiter's key for an address: an IPv4 address as it is (also when IPv4-mapped), an IPv6 address by its /64
 * (one subscriber's network; a client holds a whole /64 and could otherwise rotate through it).
 */
export function rateLimitKey(address: string): string {
  const ipv4 = mappedIpv4(address)
  if (ipv4 !== null) return ipv4
  const prefix = ipv6Prefix(address)
  return prefix ? `${prefix.join(':')}::/64` : address
}

/**
 * The coarser key beside it, for the network a client's addresses come from: an IPv6 address by
 * its /48 (one site's allocation: a free tunnel broker hands out a /48, 65,536 /64s), an IPv4
 * address (also IPv4-mapped) by its /24 (the smallest block routed on the internet, the unit a
 * hosting provider leases; one person's rented addresses tend to share it).
 */
export function networkKey(address: string): string {
  const ipv4 = mappedIpv4(address)
  if (ipv4 !== null) return `${ipv4.split('.').slice(0, 3).join('.')}.0/24`
  const prefix = ipv6Prefix(address)
  return prefix ? `${prefix.slice(0, 3).join(':')}::/48` : address
}

/** The IPv4 address a client is (written plainly or as an IPv4-mapped IPv6 address), or null for IPv6 and anything else. */
function mappedIpv4(address: string): string | null {
  if (!address.includes(':')) return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(address) ? address : null
  // An IPv4 client written as an IPv4-mapped IPv6 address is keyed as the IPv4 address it is.
  const mapped = address.toLowerCase().match(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/)
  return mapped?.[1] ?? null
}

/** The first four groups (the /64) of an IPv6 address, as lower-case hex without leading zeros (a zone index dropped); null if it is none. */
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

/** The keys this request's client is counted under: its address (IPv6: /64) and its network (IPv6: /48, IPv4: /24). */
export function clientKeys(request: Request): ClientKeys {
  const address = clientAddress(request)
  return { client: rateLimitKey(address), network: networkKey(address) }
}

/**
 * True when a binding says this client or its network has used up its posts for the period. A
 * binding that is missing or throws says nothing (one log line): `countPost` still limits the post.
 */
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

/** Within the limits (`inMemory`: counted in memory, because the database could not count it, and why), or over one. */
export type LimitVerdict = { ok: true; inMemory?: string } | { ok: false; limit: 'client' | 'network' }

/** The rate-limit window a time falls in, aligned to the wall clock as the bindings' windows are. */
export function windowOf(now: number): number {
  return Math.floor(now / PERIOD_MS)
}

/**
 * The current window's hashing key, once read. Only the key itself is kept, never a promise of it:
 * workerd does not let one request wait on work another request started (the first could end
 * before it settles), so each post that finds no key reads it, and the first to finish keeps it.
 */
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

/**
 * This window's hashing key: made by the first post of the window (whichever isolate gets there
 * first; the others read it) and kept in memory for the rest of it. The same step deletes the
 * counts and keys of past windows (a count is only ever read in its own window).
 */
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
  if (!secret) throw new StoreError('store_error', 'NoWindowKey')
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

/**
 * Counts one post under its network key, then (only if the network is within its limit) under its
 * client key, in one transaction. A count stops one past the limit, so a flood writes nothing more
 * once refused, and a refused network adds no row for each of its clients.
 */
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

/** The last line: counts in this isolate's memory, for the current window only. */
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

/**
 * Counts a post that the bindings let through (or that met no binding) against both limits,
 * across every location. If the database cannot count it (an error: the table not migrated, say),
 * the isolate's memory does, and the verdict says why: a post is never let through uncounted.
 * A database that does not answer in time throws (`store_timeout`): it would not store the post.
 */
export async function countPost(db: D1Database | undefined, keys: ClientKeys, now = Date.now()): Promise<LimitVerdict> {
  try {
    // One time-out for the whole count, hashing included.
    return await bounded(countInStore(database(db), keys, now))
  } catch (error) {
    if (error instanceof StoreError && error.code === 'store_timeout') throw error
    const verdict = countInMemory(keys, now)
    const why = error instanceof StoreError ? (error.errorName ?? error.code) : ((error as Error)?.name ?? 'unknown')
    return verdict.ok ? { ok: true, inMemory: why } : verdict
  }
}

/**
 * Part of every Cron Trigger run (every minute): deletes the counts and keys of past windows, so
 * none outlives its window by more than a minute, whether or not another post arrives.
 */
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
