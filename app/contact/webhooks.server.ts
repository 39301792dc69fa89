import {
  type AuditRecord,
  claimWebhookEvent,
  dueWebhookEventIds,
  type EventClaim,
  earlyAccessEntry,
  getEnquiry,
  LEASE_MS,
  queueWebhookEvents,
  recordWebhookAttempt,
  requeueWebhookEvent,
} from '~/ledger/index.server'
import { LedgerError } from '~/server/d1.server'
import { eachAtMost } from '~/server/each-at-most'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import { type WorkerEnv, workerRuntime } from '~/server/runtime.server'
import { site } from '~/site'
import {
  isSubscriberEvent,
  newEventId,
  type SubscriberData,
  signWebhook,
  slackMessage,
  WEBHOOK_TIMEOUT_MS,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
  webhookPayload,
  webhookRetryDelay,
  webhookSetup,
} from './webhooks'

/** Webhooks beside the delivery, retried with the same `webhook-id`; logs never name the URL or the secret. */

export const WEBHOOK_RUN_LIMIT = 30
const RUN_CONCURRENCY = 5

const at = (date: Date, plusMs = 0) => new Date(date.getTime() + plusMs).toISOString()

/** The endpoints usable here: a refused one is named in the log each cron run, and sent nothing. */
export function webhookEndpoints(env: WorkerEnv): WebhookEndpoint[] {
  return webhookSetup(env).endpoints
}

/** Queues `type` for the enquiry to every endpoint usable now; the ids of those queued now (not before). */
export async function queueWebhooks(
  env: WorkerEnv,
  enquiryId: string,
  type: WebhookEventType,
  now: Date,
): Promise<string[]> {
  const events = webhookEndpoints(env).map((endpoint) => ({
    id: newEventId(),
    endpoint: endpoint.name,
    type,
    enquiryId,
  }))
  return queueWebhookEvents(env.ENQUIRIES, events, at(now))
}

/** Queued once per endpoint, and attempted now: an enquiry's arrival, a subscriber's confirmation or departure. */
export async function announce(
  env: WorkerEnv,
  enquiryId: string,
  requestId: string,
  type: WebhookEventType = 'enquiry.received',
): Promise<void> {
  if (webhookEndpoints(env).length === 0) return
  try {
    const now = new Date()
    const ids = await queueWebhooks(env, enquiryId, type, now)
    await Promise.all(ids.map((id) => attemptWebhookNow(env, id, requestId)))
  } catch (error) {
    // Queued or not, the cron's next run takes up what is due.
    log('error', { event: 'webhook_error', requestId, enquiryId, cause: errorCause(error) })
  }
}

/** A subscriber's confirmation or departure, for the notices' confirm and leave posts: after the answer. */
export const subscriberAnnouncer =
  (env: WorkerEnv, request: Request) => async (entryId: string, type: 'subscriber.confirmed' | 'subscriber.left') =>
    (await workerRuntime()).waitUntil(announce(env, entryId, requestIdFor(request), type))

/** A subscriber event's entry as sent; null once erased (or left and signed up afresh). */
async function subscriberData(env: WorkerEnv, id: string): Promise<SubscriberData | null> {
  const entry = await earlyAccessEntry(env.ENQUIRIES, id)
  if (!entry) return null
  const { email, confirmedAt, consentVersion, leftAt } = entry
  return { id, email, confirmedAt, consentVersion, leftAt }
}

export type WebhookSendResult = { ok: true; httpStatus: number } | { ok: false; cause: string; httpStatus?: number }

/** One POST; 2xx is delivered. No redirect followed (a URL may carry a token), the answer's body unread. */
export async function sendWebhook(
  endpoint: WebhookEndpoint,
  body: string,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookSendResult> {
  const signal = AbortSignal.timeout(timeoutMs)
  let response: Response
  try {
    response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal,
    })
  } catch {
    return { ok: false, cause: signal.aborted ? 'receiver_timeout' : 'receiver_unreachable' }
  }
  response.body?.cancel().catch(() => {})
  if (response.status >= 200 && response.status <= 299) return { ok: true, httpStatus: response.status }
  return { ok: false, cause: 'receiver_status', httpStatus: response.status }
}

async function message(
  env: WorkerEnv,
  endpoint: WebhookEndpoint,
  event: WebhookEvent,
): Promise<{ body: string; headers: Record<string, string> } | null> {
  const record = event.type === 'enquiry.received' ? await getEnquiry(env.ENQUIRIES, event.enquiryId) : null
  if (event.type === 'enquiry.received' && !record) return null
  const ofEntry = event.type === 'subscriber.confirmed' || event.type === 'subscriber.left'
  const subscriber = ofEntry ? await subscriberData(env, event.enquiryId) : null
  if (ofEntry && !subscriber) return null
  if (endpoint.format === 'slack')
    return {
      body: slackMessage(event, record, { siteUrl: site.url, body: webhookSetup(env).slackBody }),
      headers: {},
    }
  const body = webhookPayload(event, record, site.url, subscriber)
  // The clock's, not the run's: a receiver refuses a timestamp more than 5 minutes from its own.
  const timestamp = Math.floor(Date.now() / 1000)
  return {
    body,
    headers: {
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await signWebhook(endpoint.secret ?? '', event.id, timestamp, body),
    },
  }
}

export type WebhookAttemptOutcome = 'delivered' | 'retry_scheduled' | 'gave_up' | 'lease_lost' | 'gone'

/** One attempt of a claimed event, recorded under its lease; a failure is retried on the schedule. */
export async function attemptWebhook(
  env: WorkerEnv,
  { event, token }: EventClaim,
  options: { requestId?: string; now?: () => Date } = {},
): Promise<WebhookAttemptOutcome> {
  const now = options.now ?? (() => new Date())
  const started = now()
  const endpoint = webhookEndpoints(env).find((candidate) => candidate.name === event.endpoint)
  const typed = { ...event, type: event.type as WebhookEventType }
  const built = endpoint ? await message(env, endpoint, typed) : undefined
  // Its enquiry erased meanwhile: the trigger deleted the event too, so there is nothing to record.
  if (built === null && !isSubscriberEvent(event.type)) return 'gone'
  // A subscriber's entry gone (left, then signed up afresh): nothing to send, ever.
  const result: WebhookSendResult =
    built === null
      ? { ok: false, cause: 'entry_gone' }
      : endpoint && built
        ? await sendWebhook(endpoint, built.body, built.headers)
        : { ok: false, cause: 'endpoint_not_configured' }
  const attempt = event.attempts + 1
  const delay = result.ok || built === null ? null : webhookRetryDelay(attempt)
  const status = result.ok ? 'delivered' : delay === null ? 'failed' : 'pending'
  const nextAttemptAt = delay === null ? null : at(now(), delay * 1000)
  const recorded = await recordWebhookAttempt(env.ENQUIRIES, event.id, token, {
    attempt,
    attemptedAt: at(started),
    outcome: result.ok ? 'delivered' : 'failed',
    cause: result.ok ? null : result.cause,
    httpStatus: result.httpStatus ?? null,
    status,
    nextAttemptAt,
  })
  const outcome: WebhookAttemptOutcome = !recorded
    ? 'lease_lost'
    : result.ok
      ? 'delivered'
      : status === 'pending'
        ? 'retry_scheduled'
        : 'gave_up'
  log(result.ok ? 'info' : outcome === 'gave_up' ? 'error' : 'warn', {
    event: 'webhook',
    requestId: options.requestId,
    webhookId: event.id,
    type: event.type,
    enquiryId: event.enquiryId,
    endpoint: event.endpoint,
    attempt,
    outcome,
    cause: result.ok ? undefined : result.cause,
    httpStatus: result.httpStatus,
    nextAttemptAt: nextAttemptAt ?? undefined,
    durationMs: now().getTime() - started.getTime(),
  })
  return outcome
}

/** Claimed now, attempted in this request: the first attempt, or an operator's Replay. `busy`: another holds it. */
export async function attemptWebhookNow(
  env: WorkerEnv,
  id: string,
  requestId: string,
): Promise<WebhookAttemptOutcome | 'busy'> {
  const started = new Date()
  const claim = await claimWebhookEvent(env.ENQUIRIES, id, at(started), at(started, LEASE_MS))
  if (!claim) return 'busy'
  return attemptWebhook(env, claim, { requestId })
}

export async function replayWebhook(
  env: WorkerEnv,
  id: string,
  enquiryId: string,
  requestId: string,
  line?: Omit<AuditRecord, 'enquiryIds'>,
): Promise<WebhookAttemptOutcome | 'busy'> {
  if (!(await requeueWebhookEvent(env.ENQUIRIES, id, enquiryId, new Date().toISOString(), line))) return 'busy'
  return attemptWebhookNow(env, id, requestId)
}

/** The cron's part: the due events, oldest first, up to `limit` (at most WEBHOOK_RUN_LIMIT; the rest next run). */
export async function deliverDueWebhooks(env: WorkerEnv, now = new Date(), limit = WEBHOOK_RUN_LIMIT): Promise<number> {
  const setup = webhookSetup(env)
  if (setup.problems.length)
    log('error', { event: 'webhook_config', problems: setup.problems.length, message: setup.problems.join('; ') })
  const ids = await dueWebhookEventIds(env.ENQUIRIES, at(now), Math.min(limit, WEBHOOK_RUN_LIMIT))
  await eachAtMost(ids, RUN_CONCURRENCY, async (id) => {
    try {
      const claim = await claimWebhookEvent(env.ENQUIRIES, id, at(now), at(now, LEASE_MS))
      if (claim) await attemptWebhook(env, claim, { now: () => now })
    } catch (error) {
      log('error', {
        event: 'webhook_error',
        webhookId: id,
        cause: error instanceof LedgerError ? error.code : errorCause(error),
      })
    }
  })
  return ids.length
}
