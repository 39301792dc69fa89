/**
 * Triage, beside the delivery status: what the people running the company are doing with an
 * enquiry. Pure rules (no D1, no request): the states and outcomes, which moves are allowed, the
 * reply-by target and when an enquiry is overdue, and the inbox's triage filters. The D1 side is
 * `triage.server.ts`.
 *
 * - new: no operator has opened it yet. Opening it (its page in the inbox) makes it open.
 * - open: read; someone should answer it.
 * - replied: someone answered the person who wrote.
 * - closed: done, with an outcome (won, lost, not a fit, spam). Reopening clears the outcome.
 */

export const TRIAGE_STATES = ['new', 'open', 'replied', 'closed'] as const
export type TriageState = (typeof TRIAGE_STATES)[number]

export const OUTCOMES = ['won', 'lost', 'not_a_fit', 'spam'] as const
export type Outcome = (typeof OUTCOMES)[number]

export const TRIAGE_LABELS: Record<TriageState, string> = {
  new: 'New',
  open: 'Open',
  replied: 'Replied',
  closed: 'Closed',
}

export const OUTCOME_LABELS: Record<Outcome, string> = {
  won: 'Won',
  lost: 'Lost',
  not_a_fit: 'Not a fit',
  spam: 'Spam',
}

export function isTriageState(value: unknown): value is TriageState {
  return typeof value === 'string' && (TRIAGE_STATES as readonly string[]).includes(value)
}

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value)
}

/** The longest note, in characters (the database refuses longer ones too). */
export const NOTE_MAX = 2000

/** An enquiry's triage as stored. */
export interface TriageFacts {
  state: TriageState
  /** Only while closed; null for one closed before triage existed (it was marked handled). */
  outcome: Outcome | null
  /** The operator who has it (their Access e-mail), or nobody. */
  owner: string | null
}

/** What an operator can do to an enquiry's triage, each a form post to /admin/actions. */
export type TriageAction =
  | { kind: 'take' }
  | { kind: 'assign'; owner: string | null }
  | { kind: 'state'; state: 'open' | 'replied' }
  | { kind: 'close'; outcome: Outcome }
  | { kind: 'note'; text: string }

/** The form's `action` values for triage (the inbox's other actions are in notices.ts). */
export const TRIAGE_ACTIONS = ['triage-take', 'triage-assign', 'triage-state', 'triage-close', 'triage-note'] as const
export type TriageActionName = (typeof TRIAGE_ACTIONS)[number]

export function isTriageActionName(value: unknown): value is TriageActionName {
  return typeof value === 'string' && (TRIAGE_ACTIONS as readonly string[]).includes(value)
}

/** What the page says after a triage action; merged into the inbox's notices (notices.ts). */
export const TRIAGE_NOTICES = {
  'triage-taken': { tone: 'success', text: 'It is yours now.' },
  'triage-assigned': { tone: 'success', text: 'Assigned.' },
  'triage-unassigned': { tone: 'success', text: 'Nobody has it now.' },
  'triage-open': { tone: 'success', text: 'Marked open.' },
  'triage-replied': { tone: 'success', text: 'Marked replied.' },
  'triage-closed': { tone: 'success', text: 'Closed.' },
  'triage-noted': { tone: 'success', text: 'Note added.' },
  'triage-unchanged': { tone: 'info', text: 'Nothing to change: it was already so.' },
  'triage-refused': { tone: 'danger', text: 'Not from its current state: reopen it first.' },
  'triage-stale': { tone: 'info', text: 'Someone changed it a moment ago. Here it is as it is now; try again.' },
  'triage-empty-note': { tone: 'danger', text: 'The note was empty, so nothing was added.' },
  'triage-unknown-operator': {
    tone: 'danger',
    text: 'That address is not one of the operators, so nothing was changed.',
  },
} as const satisfies Record<string, { tone: 'success' | 'info' | 'danger'; text: string }>

export type TriageNotice = keyof typeof TRIAGE_NOTICES

/** The result of a move: the facts after it, or why it is not allowed (a notice code). */
export type Transition =
  | { ok: true; next: TriageFacts; notice: TriageNotice }
  | { ok: false; notice: 'triage-unchanged' | 'triage-refused' }

const sameEmail = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase()

/**
 * Which moves are allowed, and what they lead to. `me`: the operator acting.
 * - take (owner = me) and assign (to an operator, or to nobody): not on a closed enquiry; a new
 *   one becomes open (someone has it, so someone read it).
 * - open: from new, replied or closed (reopening clears the outcome).
 * - replied: from new or open; a closed one is reopened first.
 * - close with an outcome: from any state; a closed one may change its outcome.
 * - note: always; a new one becomes open.
 * Doing what is already so is `triage-unchanged`, and changes nothing.
 */
export function transition(current: TriageFacts, action: TriageAction, me: string): Transition {
  const read = (state: TriageState): TriageState => (state === 'new' ? 'open' : state)
  switch (action.kind) {
    case 'take':
    case 'assign': {
      const owner = action.kind === 'take' ? me : action.owner
      if (current.state === 'closed') return { ok: false, notice: 'triage-refused' }
      if (owner !== null && sameEmail(current.owner, owner)) return { ok: false, notice: 'triage-unchanged' }
      if (owner === null && current.owner === null) return { ok: false, notice: 'triage-unchanged' }
      const notice = action.kind === 'take' ? 'triage-taken' : owner === null ? 'triage-unassigned' : 'triage-assigned'
      return { ok: true, next: { ...current, owner, state: read(current.state) }, notice }
    }
    case 'state':
      if (current.state === action.state) return { ok: false, notice: 'triage-unchanged' }
      if (action.state === 'replied' && current.state === 'closed') return { ok: false, notice: 'triage-refused' }
      return {
        ok: true,
        next: { ...current, state: action.state, outcome: null },
        notice: action.state === 'open' ? 'triage-open' : 'triage-replied',
      }
    case 'close':
      if (current.state === 'closed' && current.outcome === action.outcome)
        return { ok: false, notice: 'triage-unchanged' }
      return { ok: true, next: { ...current, state: 'closed', outcome: action.outcome }, notice: 'triage-closed' }
    case 'note':
      return { ok: true, next: { ...current, state: read(current.state) }, notice: 'triage-noted' }
  }
}

/** The moves a page offers for an enquiry in `state` (the server checks them again). */
export function allowedStates(state: TriageState): ('open' | 'replied')[] {
  return (['open', 'replied'] as const).filter(
    (target) => transition({ state, outcome: null, owner: null }, { kind: 'state', state: target }, '').ok,
  )
}

/**
 * A triage action from a posted form, or the notice that says what was wrong with it. `owner`
 * for assign: an e-mail, or empty for nobody (checked against the operators by the server).
 */
export function parseTriageAction(
  name: TriageActionName,
  form: { get(name: string): unknown },
): TriageAction | { error: 'triage-empty-note' | 'triage-refused' } {
  const field = (key: string) => {
    const value = form.get(key)
    return typeof value === 'string' ? value : ''
  }
  switch (name) {
    case 'triage-take':
      return { kind: 'take' }
    case 'triage-assign': {
      const owner = field('owner').trim()
      return { kind: 'assign', owner: owner ? owner.slice(0, 320) : null }
    }
    case 'triage-state': {
      const state = field('state')
      return state === 'open' || state === 'replied' ? { kind: 'state', state } : { error: 'triage-refused' }
    }
    case 'triage-close': {
      const outcome = field('outcome')
      return isOutcome(outcome) ? { kind: 'close', outcome } : { error: 'triage-refused' }
    }
    case 'triage-note': {
      // Line ends as the browser sends them (CRLF) are kept as LF; the cap is the database's.
      const text = field('text').replace(/\r\n?/g, '\n').trim()
      return text ? { kind: 'note', text: text.slice(0, NOTE_MAX) } : { error: 'triage-empty-note' }
    }
  }
}

// Reply-by: weekday time.

/** The default reply-by target: one business day, as hours of weekday time. */
export const DEFAULT_REPLY_BY_HOURS = 24
/** The longest target a setting may give: four working weeks. */
export const MAX_REPLY_BY_HOURS = 480

/**
 * `INBOX_REPLY_BY_HOURS`: a whole number of weekday hours from 1 to 480. Unset: 24 (one business
 * day). Anything else: the default, and `invalid` says so (the inbox's set-up shows it).
 */
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
 * When a reply is due: `hours` of weekday time after `receivedAt`. A business day is Monday to
 * Friday in UTC, all of it (the inbox shows every time in UTC); Saturday and Sunday do not count.
 * So with the default 24 hours, an enquiry received on a weekday is due at the same time on the
 * next weekday (Friday 10:00 → Monday 10:00), and one received at the weekend is due at the end
 * of Monday (Tuesday 00:00 UTC).
 */
export function replyBy(receivedAt: string | Date, hours: number): string {
  let at = new Date(receivedAt).getTime()
  if (Number.isNaN(at)) throw new RangeError(`Not a time: ${String(receivedAt)}`)
  let left = hours * HOUR
  for (;;) {
    const midnight = at - (((at % DAY) + DAY) % DAY)
    const weekday = new Date(midnight).getUTCDay() // 0 Sunday … 6 Saturday
    if (weekday === 0 || weekday === 6) {
      // Weekend: the clock starts again on Monday at 00:00.
      at = midnight + (weekday === 6 ? 2 : 1) * DAY
      continue
    }
    const saturday = midnight + (6 - weekday) * DAY
    if (left <= saturday - at) return new Date(at + left).toISOString()
    left -= saturday - at
    at = saturday
  }
}

/** Whether an enquiry is overdue at `now`: nobody has replied or closed it, and its reply-by has passed. */
export function isOverdue(state: TriageState, replyByAt: string | null, now: string | Date): boolean {
  if (state !== 'new' && state !== 'open') return false
  if (!replyByAt) return false
  return new Date(now).getTime() > Date.parse(replyByAt)
}

/** An enquiry's triage as the inbox shows it (its list, its page, its CSV). */
export interface TriageView extends TriageFacts {
  replyBy: string | null
  overdue: boolean
}

/** A triage as stored: the enquiry's columns, as the record carries them (`EnquiryTriage`, contact/enquiry.ts). */
interface StoredTriage {
  state: string
  outcome: string | null
  owner: string | null
  replyBy: string | null
}

/**
 * The view of a triage as stored: a state it does not know reads as open, the outcome counts only
 * while closed, and overdue is as of `now`.
 */
export function triageView(stored: StoredTriage, now: string | Date): TriageView {
  const state: TriageState = isTriageState(stored.state) ? stored.state : 'open'
  return {
    state,
    outcome: state === 'closed' && isOutcome(stored.outcome) ? stored.outcome : null,
    owner: stored.owner,
    replyBy: stored.replyBy,
    overdue: isOverdue(state, stored.replyBy, now),
  }
}

// The inbox's filters.

/** The triage part of the inbox's query string: `state`, `owner` (me | none) and `overdue=yes`. */
export interface TriageQuery {
  /** One state, or `active`: every state but closed. */
  state?: TriageState | 'active'
  owner?: 'me' | 'none'
  overdue?: true
}

export function parseTriageQuery(input: Record<string, unknown>): TriageQuery {
  const query: TriageQuery = {}
  if (isTriageState(input.state) || input.state === 'active') query.state = input.state
  if (input.owner === 'me' || input.owner === 'none') query.owner = input.owner
  if (input.overdue === 'yes' || input.overdue === true) query.overdue = true
  return query
}

/** The query-string values of a triage filter, for links (plain strings, so the back button works). */
export function triageParams(query: TriageQuery): { state?: string; owner?: string; overdue?: string } {
  return { state: query.state, owner: query.owner, overdue: query.overdue ? 'yes' : undefined }
}

/**
 * The filter the enquiry store applies (store.server.ts, EnquiryFilter.triage): `owner` an e-mail
 * or null for nobody; `overdueAt` the time against which reply-by has passed.
 */
export interface TriageFilter {
  state?: TriageState | 'active'
  owner?: string | null
  overdueAt?: string
}

export function triageFilter(query: TriageQuery, me: string, now: string): TriageFilter | undefined {
  if (!query.state && !query.owner && !query.overdue) return undefined
  const filter: TriageFilter = {}
  if (query.state) filter.state = query.state
  if (query.owner) filter.owner = query.owner === 'me' ? me : null
  if (query.overdue) filter.overdueAt = now
  return filter
}
