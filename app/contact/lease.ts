/**
 * The rules of a delivery attempt's lease, as SQL, in one place: the Worker (the request's first
 * attempt, the Cron Trigger, the inbox's retry and release) and `npm run enquiries -- retry` run
 * these same statements. No imports, so the script can load this file as it is.
 *
 * - A claim writes a fresh random token and `lease_until`; only a row with no live lease is claimed.
 * - The step that records an attempt's result changes the row only while its token is still there.
 * - An operator's retry or release never takes a row whose lease is live: the caller answers "busy".
 */

/** The statuses an operator's retry makes due again (a held one is released); release takes held only. */
export const RETRY_FROM = ['pending', 'failed', 'held'] as const
export const RELEASE_FROM = ['held'] as const
export type RequeueFrom = (typeof RETRY_FROM)[number]

/** No attempt holds the row at `now` (the parameter named): no lease, or one that has run out. */
export const noLiveLease = (now: string) => `(lease_until IS NULL OR lease_until <= ${now})`

/**
 * An operator's retry or release: the row becomes pending and due at `?2` (now), a held one loses
 * its reason, unless an attempt's lease is live. `?1` is the enquiry's id. Returns the id when it
 * changed the row; no row means busy, or not in one of the `from` statuses.
 */
export function requeueSql(from: readonly RequeueFrom[]): string {
  const statuses = from.map((status) => `'${status}'`).join(', ')
  return `UPDATE enquiries SET status = 'pending', held_reason = NULL, next_attempt_at = ?2
WHERE id = ?1 AND status IN (${statuses}) AND ${noLiveLease('?2')}
RETURNING id`
}

/** Whether an attempt's lease on enquiry `?1` is live at `?2`: one row with `lease_until` when it is. */
export const LIVE_LEASE_SQL = 'SELECT lease_until FROM enquiries WHERE id = ?1 AND lease_until > ?2'
