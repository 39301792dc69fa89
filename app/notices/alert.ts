import type { RecentAttempt, RecentWebhookAttempt } from '~/ledger'

/** Failures for one cause on several enquiries in a row (a revoked key) are told at once, once an hour at most. */

/** `ALERT_AFTER_FAILURES`: failures in a row, on as many enquiries. */
export const DEFAULT_ALERT_AFTER = 3
export const ALERT_INTERVAL_MS = 3_600_000

export interface FailureStreak {
  cause: string
  /** Newest failure first. */
  enquiryIds: string[]
  latestAt: string
}

/** `ALERT_AFTER_FAILURES`, 2 to 50; unset: the default; `off` or anything else: null, which the set-up names. */
export function alertAfter(raw: string | undefined): number | null {
  const value = raw?.trim()
  if (!value) return DEFAULT_ALERT_AFTER
  if (!/^\d{1,2}$/.test(value)) return null
  const n = Number(value)
  return n >= 2 && n <= 50 ? n : null
}

/** Each enquiry by its latest attempt, up to the first delivered or failed for another cause; null below `threshold`. */
export function failureStreak(attempts: readonly RecentAttempt[], threshold: number): FailureStreak | null {
  const seen = new Set<string>()
  const enquiryIds: string[] = []
  let cause: string | null = null
  let latestAt = ''
  for (const row of attempts) {
    if (seen.has(row.enquiryId)) continue
    seen.add(row.enquiryId)
    if (row.outcome !== 'failed' || !row.cause) break
    if (cause === null) {
      cause = row.cause
      latestAt = row.attemptedAt
    } else if (row.cause !== cause) break
    enquiryIds.push(row.enquiryId)
  }
  return cause !== null && enquiryIds.length >= threshold ? { cause, enquiryIds, latestAt } : null
}

/** At most once an hour per cause; a streak that stopped growing is told once. */
export function alertDue(streak: { latestAt: string }, lastSentAt: string | null, now: Date): boolean {
  if (lastSentAt === null) return true
  const last = Date.parse(lastSentAt)
  if (Number.isNaN(last)) return true
  return now.getTime() - last >= ALERT_INTERVAL_MS && Date.parse(streak.latestAt) > last
}

/** Enquiry ids and links only: no name, address or message. */
export function alertMessage(
  streak: FailureStreak,
  options: { siteName: string; deskLink: string; now: Date },
): { subject: string; text: string } {
  const n = streak.enquiryIds.length
  const lines = [
    `The last ${n} enquiries could not be delivered, each for the same cause: ${streak.cause}.`,
    'They are kept in the enquiry database and retried on schedule; each that runs out of attempts is marked failed.',
    '',
    whatToCheck(streak.cause),
    '',
    'The enquiries, newest first:',
    ...streak.enquiryIds.map((id) => `  ${options.deskLink}/enquiries/${encodeURIComponent(id)}`),
    '',
    `Failing deliveries in the desk: ${options.deskLink}?status=pending`,
    `No other alert for this cause is sent within the hour (sent ${options.now.toISOString()}).`,
    '',
  ]
  return {
    subject: `Deliveries failing: ${streak.cause} on ${n} enquiries in a row — ${options.siteName}`,
    text: lines.join('\n'),
  }
}

function whatToCheck(cause: string): string {
  if (cause === 'upstream_refused' || cause === 'upstream_status')
    return 'The form service refuses them: check its access key (CONTACT_FORM_ACCESS_KEY) and its status page.'
  if (cause === 'upstream_timeout' || cause === 'upstream_unreachable')
    return 'The form service does not answer: check its status page.'
  if (cause.startsWith('email_') || cause === 'missing_email_binding' || cause === 'invalid_sender')
    return 'Sending e-mail fails: check Email Routing and CONTACT_EMAIL_FROM.'
  return 'See docs/operations/alerting.md for what the cause means.'
}

/** One webhook endpoint's failed attempts in a row, newest first (docs/integrations.md). */
export interface EndpointStreak {
  endpoint: string
  cause: string
  failures: number
  latestAt: string
}

/** Failed attempts since the endpoint's newest delivery, at `threshold` or more (counted in attempts). */
export function endpointStreaks(attempts: readonly RecentWebhookAttempt[], threshold: number): EndpointStreak[] {
  const streaks = new Map<string, EndpointStreak & { ended: boolean }>()
  for (const row of attempts) {
    let streak = streaks.get(row.endpoint)
    if (!streak) {
      streak = { endpoint: row.endpoint, cause: row.cause ?? '', failures: 0, latestAt: row.attemptedAt, ended: false }
      streaks.set(row.endpoint, streak)
    }
    if (streak.ended) continue
    if (row.outcome !== 'failed') streak.ended = true
    else streak.failures++
  }
  return [...streaks.values()].filter((streak) => streak.failures >= threshold).map(({ ended: _, ...streak }) => streak)
}

/** The endpoint by name and host: never its URL, which may carry a token. */
export function webhookAlertMessage(
  streak: EndpointStreak,
  options: { siteName: string; host: string | null; now: Date },
): { subject: string; text: string } {
  const where = options.host ? `${streak.endpoint} (${options.host})` : streak.endpoint
  const lines = [
    `The webhook endpoint ${where} failed ${streak.failures} attempts in a row; the last cause: ${streak.cause}.`,
    'Enquiries are stored and delivered as before; each event is retried on schedule for over 24 hours, with the same webhook-id.',
    '',
    streak.cause === 'receiver_status'
      ? 'The receiver answers with an error: check it, and that WEBHOOK_SECRETS holds the secret it verifies with.'
      : 'The receiver does not answer in time, or cannot be reached: check it is up, and its address in WEBHOOK_ENDPOINTS.',
    'Each enquiry’s page in the desk shows the endpoint’s attempts, with Replay (docs/integrations.md).',
    '',
    `No other alert for this endpoint is sent within the hour (sent ${options.now.toISOString()}).`,
    '',
  ]
  return {
    subject: `Webhook failing: ${streak.endpoint}, ${streak.failures} attempts in a row — ${options.siteName}`,
    text: lines.join('\n'),
  }
}
