/**
 * A delivery attempt's lease, as SQL, in one place: the Worker (a post's first attempt, the cron,
 * an operator's retry and release) and `npm run enquiries -- retry` run these same statements.
 * No imports: the script loads this file under plain Node.
 *
 * - A claim writes a fresh random token and `lease_until`; only a row with no live lease is claimed.
 * - Recording an attempt's result changes the row only while its token is still there.
 * - An operator's retry or release never takes a row whose lease is live: the caller answers "busy".
 */

/**
 * How long one attempt holds its enquiry: longer than the form service's 10 s time-out, so nobody
 * sends an enquiry another attempt is still sending; short enough that one cut off is taken up soon.
 */
export const LEASE_MS = 2 * 60_000

/** An operator's retry makes these due again (a held one is released); release takes held only. */
export const RETRY_FROM = ['pending', 'failed', 'held'] as const
export const RELEASE_FROM = ['held'] as const
export type RequeueFrom = (typeof RETRY_FROM)[number]

/** No attempt holds the row at `now` (a placeholder): no lease, or one that has run out. */
export const noLiveLease = (now: string) => `(lease_until IS NULL OR lease_until <= ${now})`

/**
 * Enquiry `?1` becomes pending and due at `?2` (now), a held one loses its reason, unless a lease
 * is live. Returns the id when it changed the row; no row: busy, or not in one of `from`.
 */
export function requeueSql(from: readonly RequeueFrom[]): string {
  const statuses = from.map((status) => `'${status}'`).join(', ')
  return `UPDATE enquiries SET status = 'pending', held_reason = NULL, next_attempt_at = ?2
WHERE id = ?1 AND status IN (${statuses}) AND ${noLiveLease('?2')}
RETURNING id`
}

/** One row with `lease_until` while an attempt's lease on enquiry `?1` is live at `?2`. */
export const LIVE_LEASE_SQL = 'SELECT lease_until FROM enquiries WHERE id = ?1 AND lease_until > ?2'
