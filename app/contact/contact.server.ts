import type * as v from 'valibot'
import { subjectLabel } from '~/content/subjects'
import { sendReceipt } from '~/notices/notices.server'
import { log, requestIdFor } from '~/server/log.server'
import { isLoopbackHost } from '~/server/loopback'
import { type Reply, refusal } from '~/server/reply'
import type { WorkerEnv } from '~/server/runtime.server'
import { attemptDelivery, LEASE_MS } from './attempts.server'
import { planDelivery } from './deliveries/index.server'
import { type Enquiry, formatEnquiry } from './enquiry'
import { CONTACT_FIELDS, HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD } from './fields'
import { type ClientKeys, countPost, HELD_PER_HOUR } from './limits.server'
import { type ContactSubmission, fieldErrorsFrom } from './schema'
import { isEmptySource, recordSource, submittedSource } from './source.server'
import { type ContactErrorCode, FAILURE_MESSAGE } from './status'
import { newEnquiryId, newLeaseToken, StoreError, storeEnquiry } from './store.server'
import { TURNSTILE_FIELD } from './turnstile'
import { type HoldReason, turnstileSetup, verifyTurnstile } from './turnstile.server'

/**
 * An enquiry's path, top to bottom: validate (the callers, with the shared schema) → rate limit
 * (the bindings, per client and per network) and honeypot → the same limits counted in D1 across
 * locations (`limits.server.ts`) → Turnstile (when on: held or not) → store in D1 (a held one only
 * within the hourly cap) → deliver (started now, finished after the answer, retried by the Cron
 * Trigger; never while held) → answer. The visitor hears "sent" only once the enquiry is stored.
 */

/** Seconds a rate-limited client is asked to wait: the limiter's period, read from wrangler.toml at build time. */
export const RATE_LIMIT_PERIOD_SECONDS: number = __CONTACT_RATE_LIMIT_PERIOD__

export interface ContactContext {
  env: WorkerEnv
  request: Request
  /** Keeps the Worker alive for work that ends after the answer (`waitUntil`); awaited when absent. */
  waitUntil?: (work: Promise<unknown>) => void
  /** Time-out for calls to other services (tests shorten it); production default 10 s. */
  timeoutMs?: number
}

export type SubmissionOutcome =
  | { kind: 'stored'; enquiryId: string; repeat: boolean }
  | { kind: 'ignored' }
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'not_stored'; cause: string }

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

/** A request served on this machine (wrangler dev, npm start, the tests), not from a deployment. */
export function isLocalRequest(request: Request): boolean {
  try {
    return isLoopbackHost(new URL(request.url).hostname)
  } catch {
    return false
  }
}

function newEnquiry(input: ContactSubmission, now: Date): Enquiry {
  return {
    id: newEnquiryId(now),
    receivedAt: now.toISOString(),
    name: input.name,
    email: input.email,
    company: input.company,
    subject: input.subject,
    subjectLabel: subjectLabel(input.subject),
    message: input.message,
  }
}

/** The keys this request's client is counted under: its address (IPv6: /64) and its network (IPv6: /48, IPv4: /24). */
export function clientKeys(request: Request): ClientKeys {
  const address = clientAddress(request)
  return { client: rateLimitKey(address), network: networkKey(address) }
}

/**
 * True when a rate-limit binding says this client or its network has used up its submissions for
 * the current period. A binding that is missing or throws says nothing (one log line): the count
 * in the enquiry database (`countPost`) still limits the post.
 */
async function isRateLimited(env: WorkerEnv, keys: ClientKeys, requestId: string): Promise<boolean> {
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

/**
 * The reason to hold this submission, or null to deliver it: Turnstile off (both keys unset, or
 * one without the other, which is logged), or on and the token verified.
 */
async function turnstileHold(
  input: ContactSubmission,
  context: ContactContext,
  requestId: string,
): Promise<HoldReason | null> {
  const setup = turnstileSetup(context.env)
  if (!setup.on) {
    if (setup.missing.length > 0)
      log('warn', {
        event: 'contact_config',
        requestId,
        missing: setup.missing.join(','),
        message: 'Turnstile has one key without the other: it is off until both are set.',
      })
    return null
  }
  const verdict = await verifyTurnstile(setup, context.env, input[TURNSTILE_FIELD], {
    remoteIp: clientAddress(context.request),
    requestId,
    timeoutMs: context.timeoutMs,
    requestHost: new URL(context.request.url).hostname,
  })
  if (verdict.ok) return null
  const { hold, cause, hostname } = verdict
  log('info', { event: 'contact_turnstile', requestId, hold, cause, hostname })
  return verdict.hold
}

/**
 * Handles one valid submission. Logs one line with the outcome; logs never hold the message, the
 * visitor's address or a secret (a local server also prints the stored enquiry, for the developer).
 */
export async function submitEnquiry(input: ContactSubmission, context: ContactContext): Promise<SubmissionOutcome> {
  const { env, request } = context
  const requestId = requestIdFor(request)
  const started = Date.now()

  const keys = clientKeys(request)
  if (await isRateLimited(env, keys, requestId)) {
    log('warn', { event: 'contact', requestId, outcome: 'rate_limited' })
    return { kind: 'rate_limited', retryAfter: RATE_LIMIT_PERIOD_SECONDS }
  }
  if (input[HONEYPOT_FIELD].trim() !== '') {
    log('info', { event: 'contact', requestId, outcome: 'ignored', cause: 'honeypot' })
    return { kind: 'ignored' }
  }
  const notStored = (error: unknown): SubmissionOutcome => {
    const cause = error instanceof StoreError ? error.code : 'store_error'
    const errorName = error instanceof StoreError ? error.errorName : undefined
    log('error', {
      event: 'contact',
      requestId,
      outcome: 'not_stored',
      cause,
      errorName,
      durationMs: Date.now() - started,
    })
    return { kind: 'not_stored', cause }
  }

  // The same limits, counted across every Cloudflare location (the bindings count per location),
  // and the backstop when a binding is missing or fails. A database that does not answer here
  // would not store the enquiry either: the visitor hears so now, not after a second time-out.
  let counted: Awaited<ReturnType<typeof countPost>>
  try {
    counted = await countPost(env.ENQUIRIES, keys)
  } catch (error) {
    return notStored(error)
  }
  if (!counted.ok) {
    log('warn', { event: 'contact', requestId, outcome: 'rate_limited', limit: counted.limit, by: 'store' })
    return { kind: 'rate_limited', retryAfter: RATE_LIMIT_PERIOD_SECONDS }
  }

  // With Turnstile on, an enquiry without a valid token is kept as held: never refused, never
  // delivered until an operator releases it.
  const hold = await turnstileHold(input, context, requestId)

  // Store first: nothing is attempted, or acknowledged, before the enquiry is in D1.
  const now = new Date()
  const enquiry = newEnquiry(input, now)
  const key = input[IDEMPOTENCY_KEY_FIELD] ?? `server-${enquiry.id}`
  let stored: Awaited<ReturnType<typeof storeEnquiry>>
  // Stored claimed, due after the lease: the attempt below holds it (an operator's retry meanwhile
  // answers busy); if the Worker is cut off, the cron takes over once the lease runs out.
  const leaseToken = newLeaseToken()
  try {
    // Held: kept only while fewer than HELD_PER_HOUR held enquiries arrived in the last hour.
    const first = hold
      ? { heldReason: hold, cap: { since: new Date(now.getTime() - 3_600_000).toISOString(), max: HELD_PER_HOUR } }
      : { nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString(), leaseToken }
    stored = await storeEnquiry(env.ENQUIRIES, enquiry, key, first)
  } catch (error) {
    return notStored(error)
  }
  if (counted.inMemory)
    log('error', {
      event: 'contact_config',
      requestId,
      cause: 'rate_count_error',
      errorName: counted.inMemory,
      message: 'The enquiry database could not count this post (migrations applied?); counted in memory instead.',
    })

  if ('full' in stored) {
    // Not stored, so not acknowledged: the visitor gets the failure message with every field kept.
    const retryAfter = Math.max(1, Math.ceil((Date.parse(stored.freeAt) - now.getTime()) / 1000))
    log('warn', { event: 'contact', requestId, outcome: 'held_cap', heldReason: hold ?? undefined, retryAfter })
    return { kind: 'rate_limited', retryAfter }
  }
  const { record } = stored
  if (!stored.created) {
    log('info', { event: 'contact', requestId, outcome: 'repeat', enquiryId: record.id })
    return { kind: 'stored', enquiryId: record.id, repeat: true }
  }

  await keepSource(env, record.id, input, requestId)

  const plan = planDelivery(env)
  log('info', {
    event: 'contact',
    requestId,
    outcome: record.status === 'held' ? 'held' : 'stored',
    enquiryId: record.id,
    subject: record.subject,
    delivery: plan.delivery?.name ?? plan.requested,
    heldReason: record.heldReason ?? undefined,
    durationMs: Date.now() - started,
  })
  if (isLocalRequest(request)) {
    console.info(`\nNew enquiry stored (npm run enquiries lists them)\n${formatEnquiry(record)}\n`)
  }
  // Held: nothing is attempted until an operator releases it in the inbox.
  if (record.status === 'held') return { kind: 'stored', enquiryId: record.id, repeat: false }
  if (!plan.configured) {
    log('warn', {
      event: 'contact_config',
      requestId,
      requested: plan.requested,
      missing: plan.missing.join(','),
      message: `${plan.missing.join(', ')} ${plan.missing.length === 1 ? 'is' : 'are'} not set: the enquiry is stored and waits, pending, until it is.`,
    })
  }

  const delivery = attemptDelivery(
    env,
    { record, token: leaseToken },
    { requestId, timeoutMs: context.timeoutMs },
  ).catch((error) => {
    // The record is safe in D1; the lease runs out and the next cron run tries again.
    log('error', {
      event: 'contact_retry_error',
      requestId,
      enquiryId: record.id,
      cause: error instanceof StoreError ? error.code : 'attempt_error',
    })
  })
  // Beside it, the receipt to the visitor when configured (docs/notices.md): never part of the answer.
  const work = Promise.all([delivery, sendReceipt(env, record)])
  if (context.waitUntil) context.waitUntil(work)
  else await work
  return { kind: 'stored', enquiryId: record.id, repeat: false }
}

/**
 * Writes where the lead came from beside the stored enquiry. Never a reason to fail: the enquiry is
 * stored, and one log line says when its source could not be written.
 */
async function keepSource(env: WorkerEnv, id: string, input: ContactSubmission, requestId: string): Promise<void> {
  const source = submittedSource(input)
  if (isEmptySource(source)) return
  try {
    await recordSource(env.ENQUIRIES, id, source)
  } catch (error) {
    log('error', {
      event: 'contact_source',
      requestId,
      enquiryId: id,
      cause: error instanceof StoreError ? error.code : 'source_error',
    })
  }
}

/**
 * The reply to an outcome, for either endpoint: 200 once stored (or a bot's post dropped), 429
 * with Retry-After, 503 when not stored. The server function returns its body (its status and
 * headers set with Start's response helpers); the no-JavaScript endpoint sends it with
 * `replyResponse` to a client that is not a browser.
 */
export function outcomeReply(outcome: SubmissionOutcome): Reply<ContactErrorCode> {
  switch (outcome.kind) {
    case 'stored':
    case 'ignored':
      return { status: 200, body: { ok: true } }
    case 'rate_limited':
      return refusal('rate_limited', 429, FAILURE_MESSAGE, { headers: { 'Retry-After': String(outcome.retryAfter) } })
    case 'not_stored':
      return refusal('not_stored', 503, FAILURE_MESSAGE)
  }
}

/** 400 for input the schema refuses, naming each invalid field (one log line names them, never values). */
export function invalidInputReply(issues: readonly v.BaseIssue<unknown>[], request: Request): Reply<ContactErrorCode> {
  return refusal('invalid_input', 400, 'Some fields are missing or invalid.', {
    fields: refusedFields(issues, request),
  })
}

/** The per-field messages for refused input; logs one line naming the invalid fields (never values). */
export function refusedFields(issues: readonly v.BaseIssue<unknown>[], request: Request): Record<string, string> {
  const fieldErrors = fieldErrorsFrom(issues)
  const invalid = CONTACT_FIELDS.filter((field) => fieldErrors[field])
  const fields: Record<string, string> = { ...fieldErrors }
  if (invalid.length === 0) fields.body = 'Expected an object with name, email, company, subject and message.'
  log('info', {
    event: 'contact',
    requestId: requestIdFor(request),
    outcome: 'invalid',
    fields: invalid.join(',') || 'body',
  })
  return fields
}
