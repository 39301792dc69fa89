/** Triage as stored and the overdue rule, once for the list, the CSV and the digest; no imports. */

export const TRIAGE_STATES = ['new', 'open', 'replied', 'closed'] as const
export type TriageState = (typeof TRIAGE_STATES)[number]

/** How a closed enquiry ended (the `outcome` column and form field). */
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
  /** Null while not closed, and for one closed (handled) before triage existed. */
  resolution: Resolution | null
  owner: string | null
}

/** One business day; four working weeks at most. */
export const DEFAULT_REPLY_BY_HOURS = 24
export const MAX_REPLY_BY_HOURS = 480

/** `INBOX_REPLY_BY_HOURS`: whole hours, 1 to 480; anything else is the default, and `invalid`. */
export function replyByHours(value: string | undefined): { hours: number; invalid: boolean } {
  const text = value?.trim() ?? ''
  if (!text) return { hours: DEFAULT_REPLY_BY_HOURS, invalid: false }
  const hours = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (Number.isInteger(hours) && hours >= 1 && hours <= MAX_REPLY_BY_HOURS) return { hours, invalid: false }
  return { hours: DEFAULT_REPLY_BY_HOURS, invalid: true }
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** Weekday time, Monday to Friday in UTC (the desk shows UTC), all of it. */
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

/** Nobody has replied or closed it, and its reply-by has passed. */
const AWAITING_REPLY: readonly TriageState[] = ['new', 'open']

export function isOverdue(state: TriageState, replyByAt: string | null, now: string | Date): boolean {
  if (!AWAITING_REPLY.includes(state) || !replyByAt) return false
  return new Date(now).getTime() > Date.parse(replyByAt)
}

/** The same rule as SQL; `now` is the placeholder bound to the time. */
export const overdueSql = (now: string) =>
  `(triage IN (${AWAITING_REPLY.map((state) => `'${state}'`).join(', ')}) AND reply_by < ${now})`

export interface TriageView extends TriageFacts {
  replyBy: string | null
  overdue: boolean
}

/** An unknown stored state reads as open. */
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

/** `active`: not closed; `owner` null: nobody's. */
export interface TriageFilter {
  state?: TriageState | 'active'
  owner?: string | null
  overdueAt?: string
}
