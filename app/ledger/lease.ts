/** A delivery attempt's lease as SQL, shared by the Worker and `npm run enquiries -- retry` (no imports):
 * one live lease per row, and a result recorded only while its token holds it. */

/** Longer than the form service's 10 s time-out; short enough that an attempt cut off is taken up soon. */
export const LEASE_MS = 2 * 60_000

/** A retry makes these due again (a held one is released); a release takes held only. */
export const RETRY_FROM = ['pending', 'failed', 'held'] as const
export const RELEASE_FROM = ['held'] as const
export type RequeueFrom = (typeof RETRY_FROM)[number]

export const noLiveLease = (now: string) => `(lease_until IS NULL OR lease_until <= ${now})`

/** What a requeue needs of enquiry `id` at `at` (SQL parameters): one of `from`, and no live lease. */
export function requeueCondition(from: readonly RequeueFrom[], id: string, at: string): string {
  const statuses = from.map((status) => `'${status}'`).join(', ')
  return `id = ${id} AND status IN (${statuses}) AND ${noLiveLease(at)}`
}

/** Enquiry `?1` pending and due at `?2`, unless a lease is live; returns the id when it changed the row. */
export function requeueSql(from: readonly RequeueFrom[]): string {
  return `UPDATE enquiries SET status = 'pending', held_reason = NULL, next_attempt_at = ?2
WHERE ${requeueCondition(from, '?1', '?2')}
RETURNING id`
}

export const LIVE_LEASE_SQL = 'SELECT lease_until FROM enquiries WHERE id = ?1 AND lease_until > ?2'
