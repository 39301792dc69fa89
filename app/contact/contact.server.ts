import type * as v from 'valibot'
import { subjectLabel } from '~/content/subjects'
import { CONTACT_FIELDS, pickValues } from '~/ledger'
import {
  type Enquiry,
  type EnquirySource,
  formatEnquiry,
  LEASE_MS,
  newEnquiryId,
  newLeaseToken,
  recordSource,
  storeEnquiry,
} from '~/ledger/index.server'
import { sendReceipt } from '~/notices/index.server'
import { LedgerError } from '~/server/d1.server'
import { log } from '~/server/log.server'
import { isLoopbackHost } from '~/server/loopback'
import { type Reply, refusal } from '~/server/reply'
import type { WorkerEnv } from '~/server/runtime.server'
import { attemptDelivery } from './attempts.server'
import { planDelivery } from './deliveries/index.server'
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD } from './fields'
import {
  clientAddress,
  clientKeys,
  countPost,
  HELD_CEILING_PER_HOUR,
  HELD_PER_HOUR,
  heldNetwork,
  isRateLimited,
  RATE_LIMIT_PERIOD_SECONDS,
} from './limits.server'
import { type EnquiryInput, fieldErrorsFrom } from './schema'
import { type ContactErrorCode, FAILURE_MESSAGE } from './status'
import { TURNSTILE_FIELD } from './turnstile'
import { turnstileHold, turnstileSetup } from './turnstile.server'

/** Rate limit (bindings) and honeypot → the same limits in D1 → Turnstile → store → deliver (after the
 * answer, retried by the cron; never while held) → answer. "Sent" only once the enquiry is stored. */

export interface ContactContext {
  env: WorkerEnv
  request: Request
  requestId: string
  /** Work that ends after the answer; awaited when absent. */
  waitUntil?: (work: Promise<unknown>) => void
  /** For calls to other services (tests shorten it); 10 s otherwise. */
  timeoutMs?: number
}

export type EnquiryOutcome =
  | { kind: 'stored'; enquiryId: string; repeat: boolean }
  | { kind: 'ignored' }
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'not_stored'; cause: string }

/** wrangler dev, npm start, the tests. */
export function isLocalRequest(request: Request): boolean {
  try {
    return isLoopbackHost(new URL(request.url).hostname)
  } catch {
    return false
  }
}

function newEnquiry(input: EnquiryInput, now: Date): Enquiry {
  return {
    id: newEnquiryId(now),
    receivedAt: now.toISOString(),
    ...pickValues(input),
    subjectLabel: subjectLabel(input.subject),
  }
}

/** One log line with the outcome, never the message, the address or a secret (a local server prints the enquiry). */
export async function submitEnquiry(input: EnquiryInput, context: ContactContext): Promise<EnquiryOutcome> {
  const { env, request, requestId } = context
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
  const notStored = (error: unknown): EnquiryOutcome => {
    const cause = error instanceof LedgerError ? error.code : 'store_error'
    const errorName = error instanceof LedgerError ? error.errorName : undefined
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

  // Across locations; a D1 that does not answer here would not store the enquiry either, so say so now.
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

  const hold = await turnstileHold(env, input[TURNSTILE_FIELD], {
    remoteIp: clientAddress(request),
    requestHost: new URL(request.url).hostname,
    requestId,
    timeoutMs: context.timeoutMs,
  })

  // Stored first: nothing is attempted, or acknowledged, before the enquiry is in D1.
  const now = new Date()
  const enquiry = newEnquiry(input, now)
  const key = input[IDEMPOTENCY_KEY_FIELD] ?? `server-${enquiry.id}`
  let stored: Awaited<ReturnType<typeof storeEnquiry>>
  // Stored claimed by the attempt below; if the Worker is cut off, the cron takes over when the lease ends.
  const leaseToken = newLeaseToken()
  try {
    // Held because siteverify could not be asked: neither counted nor capped (docs/contact.md, "Floods").
    const first = !hold
      ? { nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString(), leaseToken }
      : hold === 'turnstile_unverified'
        ? { heldReason: hold }
        : {
            heldReason: hold,
            cap: {
              since: new Date(now.getTime() - 3_600_000).toISOString(),
              max: HELD_PER_HOUR,
              ceiling: HELD_CEILING_PER_HOUR,
              network: await heldNetwork(env.ENQUIRIES, keys.network, now.getTime()),
            },
          }
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
    // Not stored, so not acknowledged: the visitor keeps every field.
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
    // Safe in D1: the lease runs out and the cron tries again.
    log('error', {
      event: 'contact_retry_error',
      requestId,
      enquiryId: record.id,
      cause: error instanceof LedgerError ? error.code : 'attempt_error',
    })
  })
  // The receipt (docs/notices.md) is never part of the answer.
  const turnstile = turnstileSetup(env).on ? (hold ? 'failed' : 'valid') : 'off'
  const work = Promise.all([delivery, sendReceipt(env, record, { network: keys.network, turnstile })])
  if (context.waitUntil) context.waitUntil(work)
  else await work
  return { kind: 'stored', enquiryId: record.id, repeat: false }
}

function submittedSource(input: EnquiryInput): EnquirySource {
  return {
    page: input.source_page ?? null,
    firstPage: input.source_first_page ?? null,
    referrerHost: input.source_referrer ?? null,
    utmSource: input.utm_source ?? null,
    utmMedium: input.utm_medium ?? null,
    utmCampaign: input.utm_campaign ?? null,
  }
}

/** Never a reason to fail: the enquiry is stored, and one log line says its source was not. */
async function keepSource(env: WorkerEnv, id: string, input: EnquiryInput, requestId: string): Promise<void> {
  const source = submittedSource(input)
  if (Object.values(source).every((value) => value === null)) return
  try {
    await recordSource(env.ENQUIRIES, id, source)
  } catch (error) {
    log('error', {
      event: 'contact_source',
      requestId,
      enquiryId: id,
      cause: error instanceof LedgerError ? error.code : 'source_error',
    })
  }
}

/** For either endpoint: 200 once stored (or a bot's post dropped), 429 with Retry-After, 503 when not stored. */
export function outcomeReply(outcome: EnquiryOutcome): Reply<ContactErrorCode> {
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

/** Naming each invalid field, never a value. */
export function invalidInputReply(issues: readonly v.BaseIssue<unknown>[], requestId: string): Reply<ContactErrorCode> {
  return refusal('invalid_input', 400, 'Some fields are missing or invalid.', {
    fields: refusedFields(issues, requestId),
  })
}

/** `name, email, company, subject and message`. */
const listed = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '')

export function refusedFields(issues: readonly v.BaseIssue<unknown>[], requestId: string): Record<string, string> {
  const fieldErrors = fieldErrorsFrom(issues)
  const invalid = CONTACT_FIELDS.filter((field) => fieldErrors[field])
  const fields: Record<string, string> = { ...fieldErrors }
  if (invalid.length === 0) fields.body = `Expected an object with ${listed(CONTACT_FIELDS)}.`
  log('info', {
    event: 'contact',
    requestId,
    outcome: 'invalid',
    fields: invalid.join(',') || 'body',
  })
  return fields
}
