import type { RecentAttempt } from '~/ledger'

/**
 * The delivery alert's rule, pure: when deliveries fail for one cause on several enquiries in a
 * row (a revoked key: `upstream_refused` on every enquiry), the company is told at once, and at
 * most once an hour for that cause.
 */

/** Failures in a row, on as many different enquiries, that make an alert (`ALERT_AFTER_FAILURES`). */
export const DEFAULT_ALERT_AFTER = 3
/** At most one alert per cause in this time. */
export const ALERT_INTERVAL_MS = 3_600_000

/** Several enquiries whose latest attempts all failed for the same cause, newest first. */
export interface FailureStreak {
  cause: string
  /** The enquiries, newest failure first. */
  enquiryIds: string[]
  /** When the newest of these failures happened. */
  latestAt: string
}

/**
 * `ALERT_AFTER_FAILURES` as a number from 2 to 50; unset or empty: the default; `off`: null
 * (no alerts). Anything else: null too, which the set-up panel names.
 */
export function alertAfter(raw: string | undefined): number | null {
  const value = raw?.trim()
  if (!value) return DEFAULT_ALERT_AFTER
  if (!/^\d{1,2}$/.test(value)) return null
  const n = Number(value)
  return n >= 2 && n <= 50 ? n : null
}

/**
 * The streak of failures at the head of `attempts` (newest first): each enquiry counts once, by
 * its latest attempt, and the streak ends at the first enquiry whose latest attempt was delivered
 * or failed for another cause. A streak of `threshold` enquiries or more is returned; else null.
 */
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

/**
 * Whether a streak is alerted now, given when the last alert for its cause went (null: never):
 * not within the hour after that one, and never twice for the same failures (the streak's newest
 * failure must be newer than the last alert, so a streak that stopped growing is told once).
 */
export function alertDue(streak: FailureStreak, lastSentAt: string | null, now: Date): boolean {
  if (lastSentAt === null) return true
  const last = Date.parse(lastSentAt)
  if (Number.isNaN(last)) return true
  return now.getTime() - last >= ALERT_INTERVAL_MS && Date.parse(streak.latestAt) > last
}

/** The alert's subject and text. Enquiry ids and links only: no name, address or message. */
export function alertMessage(
  streak: FailureStreak,
  options: { siteName: string; inboxUrl: string; now: Date },
): { subject: string; text: string } {
  const n = streak.enquiryIds.length
  const lines = [
    `The last ${n} enquiries could not be delivered, each for the same cause: ${streak.cause}.`,
    'They are kept in the enquiry database and retried on schedule; each that runs out of attempts is marked failed.',
    '',
    whatToCheck(streak.cause),
    '',
    'The enquiries, newest first:',
    ...streak.enquiryIds.map((id) => `  ${options.inboxUrl}/enquiries/${encodeURIComponent(id)}`),
    '',
    `Failing deliveries in the inbox: ${options.inboxUrl}?status=pending`,
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
  return 'See docs/operations.md for what the cause means.'
}
