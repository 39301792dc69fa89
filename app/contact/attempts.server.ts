import {
  type AttemptRecord,
  type Claim,
  claimEnquiry,
  countPending,
  dueEnquiryIds,
  LEASE_MS,
  recordAttempt,
  releaseLease,
} from '~/ledger/index.server'
import { type EmailMessageConstructor, sendGiveUpNotice } from '~/notices/index.server'
import { LedgerError } from '~/server/d1.server'
import { eachAtMost } from '~/server/each-at-most'
import { errorCause, log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { planDelivery } from './deliveries/index.server'
import { announce } from './webhooks.server'

/** At least once: first in the storing request, then the cron's runs; a delivered enquiry is never sent again. */

/** 1 min, 5 min, 30 min, 2 h, 12 h: six attempts in all. */
export const DEFAULT_RETRY_DELAYS = [60, 300, 1800, 7200, 43200] as const

export const RUN_LIMIT = 30
const RUN_CONCURRENCY = 5

/** `CONTACT_RETRY_DELAYS` in seconds ("60,300,…"); the default when unset or malformed. */
export function retryDelays(env: WorkerEnv): readonly number[] {
  const raw = env.CONTACT_RETRY_DELAYS?.trim()
  if (!raw) return DEFAULT_RETRY_DELAYS
  const delays = raw.split(',').map((part) => Number(part.trim()))
  const valid = delays.length > 0 && delays.every((delay) => Number.isInteger(delay) && delay >= 0 && delay <= 604_800)
  return valid ? delays : DEFAULT_RETRY_DELAYS
}

export interface AttemptOptions {
  requestId?: string
  limit?: number
  timeoutMs?: number
  now?: () => Date
  EmailMessageClass?: EmailMessageConstructor
}

/** `lease_lost`: it ran, but its lease no longer held the enquiry, so its result changed nothing. */
export type AttemptOutcome = 'delivered' | 'retry_scheduled' | 'gave_up' | 'not_attempted' | 'lease_lost'

const at = (date: Date, plusMs = 0) => new Date(date.getTime() + plusMs).toISOString()

/** Its webhooks' `enquiry.received` beside it (never instead of it), queued the first time only. */
export async function attemptDelivery(
  env: WorkerEnv,
  claim: Claim,
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const [outcome] = await Promise.all([
    attemptClaimed(env, claim, options),
    announce(env, claim.record.id, options.requestId ?? ''),
  ])
  return outcome
}

/** Without a usable delivery nothing is attempted and the lease is given back: the enquiry stays due. */
async function attemptClaimed(env: WorkerEnv, claim: Claim, options: AttemptOptions): Promise<AttemptOutcome> {
  const { record, token } = claim
  const now = options.now ?? (() => new Date())
  const plan = planDelivery(env)
  if (!plan.delivery) {
    await releaseLease(env.ENQUIRIES, record.id, token, at(now()))
    return 'not_attempted'
  }
  const delivery = plan.delivery
  const started = now()
  const result = await delivery.deliver(record, {
    env,
    requestId: options.requestId ?? '',
    timeoutMs: options.timeoutMs,
  })
  const attempt = record.attempts + 1
  const attemptedAt = at(started)
  const common = {
    event: 'contact',
    requestId: options.requestId,
    enquiryId: record.id,
    delivery: delivery.name,
    attempt,
    durationMs: now().getTime() - started.getTime(),
  }
  const recorded = async (fields: AttemptRecord): Promise<boolean> => {
    const outcome = await recordAttempt(env.ENQUIRIES, record.id, token, fields)
    if (outcome === 'renumbered')
      log('error', {
        ...common,
        event: 'contact_history_clash',
        message: 'Attempt number taken; recorded as the next.',
      })
    if (outcome !== 'lease_lost') return true
    log('warn', { ...common, outcome: 'lease_lost', result: fields.status, cause: fields.cause ?? undefined })
    return false
  }

  if (result.ok) {
    const fields: AttemptRecord = {
      attempt,
      attemptedAt,
      delivery: delivery.name,
      status: 'delivered',
      cause: null,
      nextAttemptAt: null,
    }
    if (!(await recorded(fields))) return 'lease_lost'
    log('info', { ...common, outcome: 'delivered', subject: record.subject, ...result.detail })
    return 'delivered'
  }

  const delays = retryDelays(env)
  if (attempt <= delays.length) {
    const nextAttemptAt = at(now(), (delays[attempt - 1] ?? 0) * 1000)
    const fields: AttemptRecord = {
      attempt,
      attemptedAt,
      delivery: delivery.name,
      status: 'pending',
      cause: result.cause,
      nextAttemptAt,
    }
    if (!(await recorded(fields))) return 'lease_lost'
    log('warn', { ...common, outcome: 'retry_scheduled', cause: result.cause, nextAttemptAt, ...result.detail })
    return 'retry_scheduled'
  }

  const fields: AttemptRecord = {
    attempt,
    attemptedAt,
    delivery: delivery.name,
    status: 'failed',
    cause: result.cause,
    nextAttemptAt: null,
  }
  if (!(await recorded(fields))) return 'lease_lost'
  const notified = await sendGiveUpNotice(env, record, result.cause, attempt, options.EmailMessageClass)
  log('error', { ...common, outcome: 'gave_up', cause: result.cause, notified, ...result.detail })
  return 'gave_up'
}

/** An operator's retry or release, in their request. `busy`: another attempt claimed it first. */
export async function attemptNow(env: WorkerEnv, id: string, requestId: string): Promise<AttemptOutcome | 'busy'> {
  const started = new Date()
  const claim = await claimEnquiry(env.ENQUIRIES, id, at(started), at(started, LEASE_MS))
  if (!claim) return 'busy'
  return attemptDelivery(env, claim, { requestId })
}

export interface RunSummary {
  due: number
  delivered: number
  retryScheduled: number
  gaveUp: number
  notAttempted: number
  leaseLost: number
}

/** Oldest first, up to RUN_LIMIT; a delivery lacking its secret or binding attempts nothing, and each run logs it. */
export async function deliverDueEnquiries(env: WorkerEnv, options: AttemptOptions = {}): Promise<RunSummary> {
  const now = options.now ?? (() => new Date())
  const summary: RunSummary = { due: 0, delivered: 0, retryScheduled: 0, gaveUp: 0, notAttempted: 0, leaseLost: 0 }
  const plan = planDelivery(env)
  if (!plan.delivery) {
    if (!plan.configured) {
      const pending = await countPending(env.ENQUIRIES)
      log('error', {
        event: 'contact_config',
        requested: plan.requested,
        missing: plan.missing.join(','),
        pending,
        message: `${plan.missing.join(', ')} ${plan.missing.length === 1 ? 'is' : 'are'} not set for the ${plan.requested} delivery: ${pending} enquiries wait, pending, until it is.`,
      })
    }
    return summary
  }

  const ids = await dueEnquiryIds(env.ENQUIRIES, at(now()), Math.min(options.limit ?? RUN_LIMIT, RUN_LIMIT))
  summary.due = ids.length
  await eachAtMost(ids, RUN_CONCURRENCY, async (id) => {
    try {
      const started = now()
      const claim = await claimEnquiry(env.ENQUIRIES, id, at(started), at(started, LEASE_MS))
      if (!claim) return
      const result = await attemptDelivery(env, claim, options)
      if (result === 'delivered') summary.delivered++
      else if (result === 'retry_scheduled') summary.retryScheduled++
      else if (result === 'gave_up') summary.gaveUp++
      else if (result === 'lease_lost') summary.leaseLost++
      else summary.notAttempted++
    } catch (error) {
      // The lease runs out and the next run takes it up.
      log('error', {
        event: 'contact_retry_error',
        enquiryId: id,
        cause: error instanceof LedgerError ? error.code : errorCause(error),
      })
    }
  })
  if (ids.length > 0) log('info', { event: 'contact_retry_run', ...summary })
  return summary
}
