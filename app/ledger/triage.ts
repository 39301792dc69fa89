/**
 * An enquiry's triage as the ledger keeps it (migrations/0005_triage.sql), and the reply-by and
 * overdue rule, the one place they are written: the inbox's list, its filter and counts, the CSV
 * and the digest all read them from here. The moves between states are the desk's
 * (app/desk/triage.ts). No imports: any bundle may carry it.
 *
 * - new: no operator has opened it. open: read, someone should answer. replied: answered.
 * - closed: done, with a resolution. Reopening clears it.
 */

export const TRIAGE_STATES = ['new', 'open', 'replied', 'closed'] as const
export type TriageState = (typeof TRIAGE_STATES)[number]

/** How a closed enquiry ended (stored in the `outcome` column, posted as the `outcome` field). */
export const RESOLUTIONS = ['won', 'lost', 'not_a_fit', 'spam'] as const
export type Resolution = (typeof RESOLUTIONS)[number]

export function isTriageState(value: unknown): value is TriageState {
  return typeof value === 'string' && (TRIAGE_STATES as readonly string[]).includes(value)
}

export function isResolution(value: unknown): value is Resolution {
  return typeof value === 'string' && (RESOLUTIONS as readonly string[]).includes(value)
}

export interface TriageFacts {
  state: TriageState
  /** Only while closed; null for one closed before triage existed (it was marked handled). */
  resolution: Resolution | null
  owner: string | null
}

/** The default target, one business day; the longest a setting may give, four working weeks. */
export const DEFAULT_REPLY_BY_HOURS = 24
export const MAX_REPLY_BY_HOURS = 480

/** `INBOX_REPLY_BY_HOURS`: whole weekday hours from 1 to 480; anything else is the default, and `invalid`. */
export function replyByHours(value: string | undefined): { hours: number; invalid: boolean } {
  const text = value?.trim() ?? ''
  if (!text) return { hours: DEFAULT_REPLY_BY_HOURS, invalid: false }
  const hours = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (Number.isInteger(hours) && hours >= 1 && hours <= MAX_REPLY_BY_HOURS) return { hours, invalid: false }
  return { hours: DEFAULT_REPLY_BY_HOURS, invalid: true }
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/**
 * `hours` of weekday time after `receivedAt`: Monday to Friday in UTC, all of it (the desk shows
 * UTC). With 24 hours, Friday 10:00 is due Monday 10:00, and a weekend one at Tuesday 00:00.
 */
export function replyBy(receivedAt: string | Date, hours: number): string {
  let at = new Date(receivedAt).getTime()
  if (Number.isNaN(at)) throw new RangeError(`Not a time: ${String(receivedAt)}`)
  let left = hours * HOUR
  for (;;) {
    const midnight = at - (((at % DAY) + DAY) % DAY)
    const weekday = new Date(midnight).getUTCDay()
    if (weekday === 0 || weekday === 6) {
      at = midnight + (weekday === 6 ? 2 : 1) * DAY
      continue
    }
    const saturday = midnight + (6 - weekday) * DAY
    if (left <= saturday - at) return new Date(at + left).toISOString()
    left -= saturday - at
    at = saturday
  }
}

/** Overdue: nobody has replied or closed it, and its reply-by has passed. */
const AWAITING_REPLY: readonly TriageState[] = ['new', 'open']

export function isOverdue(state: TriageState, replyByAt: string | null, now: string | Date): boolean {
  if (!AWAITING_REPLY.includes(state) || !replyByAt) return false
  return new Date(now).getTime() > Date.parse(replyByAt)
}

/** The same rule as SQL on an `enquiries` row; `now` is the placeholder bound to the time (`?1`). */
export const overdueSql = (now: string) =>
  `(triage IN (${AWAITING_REPLY.map((state) => `'${state}'`).join(', ')}) AND reply_by < ${now})`

/** An enquiry's triage as the desk shows it (its list, its page, its CSV). */
export interface TriageView extends TriageFacts {
  replyBy: string | null
  overdue: boolean
}

/** An unknown stored state reads as open; a resolution counts only while closed; overdue as of `now`. */
export function triageView(
  stored: { state: string; resolution: string | null; owner: string | null; replyBy: string | null },
  now: string | Date,
): TriageView {
  const state: TriageState = isTriageState(stored.state) ? stored.state : 'open'
  return {
    state,
    resolution: state === 'closed' && isResolution(stored.resolution) ? stored.resolution : null,
    owner: stored.owner,
    replyBy: stored.replyBy,
    overdue: isOverdue(state, stored.replyBy, now),
  }
}

/** What the inbox lists by triage: one state (`active`: not closed), one owner (null: nobody), overdue at a time. */
export interface TriageFilter {
  state?: TriageState | 'active'
  owner?: string | null
  overdueAt?: string
}
