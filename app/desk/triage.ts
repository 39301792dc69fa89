import {
  isResolution,
  isTriageState,
  type Resolution,
  type TriageFacts,
  type TriageFilter,
  type TriageState,
} from '~/ledger'
import type { DeskActionName } from './actions'

/** Triage's moves, and the desk's filters by it; states, resolutions and overdue are the ledger's. */

export const TRIAGE_LABELS: Record<TriageState, string> = {
  new: 'New',
  open: 'Open',
  replied: 'Replied',
  closed: 'Closed',
}

export const RESOLUTION_LABELS: Record<Resolution, string> = {
  won: 'Won',
  lost: 'Lost',
  not_a_fit: 'Not a fit',
  spam: 'Spam',
}

/** The database refuses longer ones too. */
export const NOTE_MAX = 2000

export type TriageAction =
  | { kind: 'take' }
  | { kind: 'assign'; owner: string | null }
  | { kind: 'state'; state: 'open' | 'replied' }
  | { kind: 'close'; resolution: Resolution }
  | { kind: 'note'; text: string }

export type TriageActionName = Extract<DeskActionName, `triage-${string}`>

export const TRIAGE_FLASHES = {
  'triage-taken': { tone: 'success', text: 'It is yours now.' },
  'triage-assigned': { tone: 'success', text: 'Assigned.' },
  'triage-unassigned': { tone: 'success', text: 'Nobody has it now.' },
  'triage-open': { tone: 'success', text: 'Marked open.' },
  'triage-replied': { tone: 'success', text: 'Marked replied.' },
  'triage-closed': { tone: 'success', text: 'Closed.' },
  'triage-noted': { tone: 'success', text: 'Note added.' },
  'triage-unchanged': { tone: 'info', text: 'Nothing to change: it was already so.' },
  'triage-refused': { tone: 'danger', text: 'Not from its current state: reopen it first.' },
  'triage-stale': {
    tone: 'info',
    text: 'Nothing was changed: it had changed since your page showed it. Here it is as it is now.',
  },
  'triage-empty-note': { tone: 'danger', text: 'The note was empty, so nothing was added.' },
  'triage-unknown-operator': {
    tone: 'danger',
    text: 'That address is not one of the operators, so nothing was changed.',
  },
} as const satisfies Record<string, { tone: 'success' | 'info' | 'danger'; text: string }>

export type TriageFlash = keyof typeof TRIAGE_FLASHES

export type Transition =
  | { ok: true; next: TriageFacts; flash: TriageFlash }
  | { ok: false; flash: 'triage-unchanged' | 'triage-refused' }

const sameEmail = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase()

/** A new enquiry taken, assigned or noted becomes open: someone has it, so someone read it. */
export function transition(current: TriageFacts, action: TriageAction, me: string): Transition {
  const read = (state: TriageState): TriageState => (state === 'new' ? 'open' : state)
  switch (action.kind) {
    case 'take':
    case 'assign': {
      const owner = action.kind === 'take' ? me : action.owner
      if (current.state === 'closed') return { ok: false, flash: 'triage-refused' }
      if (owner !== null && sameEmail(current.owner, owner)) return { ok: false, flash: 'triage-unchanged' }
      if (owner === null && current.owner === null) return { ok: false, flash: 'triage-unchanged' }
      const flash = action.kind === 'take' ? 'triage-taken' : owner === null ? 'triage-unassigned' : 'triage-assigned'
      return { ok: true, next: { ...current, owner, state: read(current.state) }, flash }
    }
    case 'state':
      if (current.state === action.state) return { ok: false, flash: 'triage-unchanged' }
      if (action.state === 'replied' && current.state === 'closed') return { ok: false, flash: 'triage-refused' }
      return {
        ok: true,
        next: { ...current, state: action.state, resolution: null },
        flash: action.state === 'open' ? 'triage-open' : 'triage-replied',
      }
    case 'close':
      if (current.state === 'closed' && current.resolution === action.resolution)
        return { ok: false, flash: 'triage-unchanged' }
      return { ok: true, next: { ...current, state: 'closed', resolution: action.resolution }, flash: 'triage-closed' }
    case 'note':
      return { ok: true, next: { ...current, state: read(current.state) }, flash: 'triage-noted' }
  }
}

/** What the audit line says was done; bounded to known values (an operator from the list, a state, a resolution). */
export function auditDetail(action: TriageAction): string {
  if (action.kind === 'assign') return `to ${action.owner ?? 'nobody'}`
  if (action.kind === 'state') return action.state
  return action.kind === 'close' ? action.resolution : ''
}

/** The server checks them again. */
export function allowedStates(state: TriageState): ('open' | 'replied')[] {
  return (['open', 'replied'] as const).filter(
    (target) => transition({ state, resolution: null, owner: null }, { kind: 'state', state: target }, '').ok,
  )
}

/** Or the flash that says what was wrong with it. */
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
      // The form field keeps the stored column's name.
      const resolution = field('outcome')
      return isResolution(resolution) ? { kind: 'close', resolution } : { error: 'triage-refused' }
    }
    case 'triage-note': {
      // CRLF as the browser sends it is kept as LF; the cap is the database's.
      const text = field('text').replace(/\r\n?/g, '\n').trim()
      return text ? { kind: 'note', text: text.slice(0, NOTE_MAX) } : { error: 'triage-empty-note' }
    }
  }
}

/** Made only while the enquiry is as its page showed (docs/desk.md, "Moves on what the operator saw"). */
export const SEEN_FIELDS = { state: 'seen-state', resolution: 'seen-outcome', owner: 'seen-owner' } as const

export function seenFields(shown: TriageFacts): Record<string, string> {
  return {
    [SEEN_FIELDS.state]: shown.state,
    [SEEN_FIELDS.resolution]: shown.resolution ?? '',
    [SEEN_FIELDS.owner]: shown.owner ?? '',
  }
}

/** Null when the post names none (a script's post: then it is compared with the triage as read). */
export function parseSeen(form: { get(name: string): unknown }): TriageFacts | null {
  const state = form.get(SEEN_FIELDS.state)
  if (state === null) return null
  const resolution = form.get(SEEN_FIELDS.resolution)
  const owner = form.get(SEEN_FIELDS.owner)
  return {
    state: isTriageState(state) ? state : 'open',
    resolution: isResolution(resolution) ? resolution : null,
    owner: typeof owner === 'string' && owner ? owner : null,
  }
}

export function sameTriage(a: TriageFacts, b: TriageFacts): boolean {
  return a.state === b.state && a.resolution === b.resolution && sameEmail(a.owner, b.owner)
}

export interface TriageQuery {
  /** `active`: every state but closed. */
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

/** Plain strings, so the back button works. */
export function triageParams(query: TriageQuery): { state?: string; owner?: string; overdue?: string } {
  return { state: query.state, owner: query.owner, overdue: query.overdue ? 'yes' : undefined }
}

export function triageFilter(query: TriageQuery, me: string, now: string): TriageFilter | undefined {
  if (!query.state && !query.owner && !query.overdue) return undefined
  const filter: TriageFilter = {}
  if (query.state) filter.state = query.state
  if (query.owner) filter.owner = query.owner === 'me' ? me : null
  if (query.overdue) filter.overdueAt = now
  return filter
}
