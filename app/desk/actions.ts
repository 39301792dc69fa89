/** The desk's actions, one entry each: the dispatcher, the forms and the audit trail's words all come from
 * here, and a handler missing on the server is a type error. No server code: the pages import it. */

/** What a press is checked against before it changes anything: what its page showed. */
export type PageState =
  /** The enquiry's delivery status (`seen-status`): else `status-stale`, nothing done. */
  | 'status'
  /** The enquiry's triage (`seen-state`, `seen-outcome`, `seen-owner`): else `triage-stale`. */
  | 'triage'
  /** The webhook event, not under way: else `busy`. */
  | 'webhook event'
  /** The held enquiries up to the newest the confirmation page counted (`until`). */
  | 'held selection'
  /** The person's enquiries the confirmation page listed (`ids`). */
  | 'listed enquiries'
  /** Nothing: a note is added whatever the triage. */
  | 'nothing'

export interface DeskActionFacts {
  /** Posted with one enquiry's `id`, refused without a valid one. */
  enquiry: boolean
  /** The audit trail's action for its line, and how the desk shows that line. */
  audit: string
  label: string
  checks: PageState
}

export const DESK_ACTIONS = {
  handled: { enquiry: true, audit: 'handled', label: 'Marked handled', checks: 'status' },
  retry: { enquiry: true, audit: 'retry', label: 'Retried delivery', checks: 'status' },
  release: { enquiry: true, audit: 'release', label: 'Released', checks: 'status' },
  erase: { enquiry: true, audit: 'erase', label: 'Erased', checks: 'status' },
  replay: { enquiry: true, audit: 'replay', label: 'Replayed a webhook', checks: 'webhook event' },
  'triage-take': { enquiry: true, audit: 'triage-take', label: 'Took it', checks: 'triage' },
  'triage-assign': { enquiry: true, audit: 'triage-assign', label: 'Assigned', checks: 'triage' },
  'triage-state': { enquiry: true, audit: 'triage-state', label: 'Changed its state', checks: 'triage' },
  'triage-close': { enquiry: true, audit: 'triage-close', label: 'Closed', checks: 'triage' },
  'triage-note': { enquiry: true, audit: 'triage-note', label: 'Added a note', checks: 'nothing' },
  'replay-subscriber': {
    enquiry: false,
    audit: 'replay-subscriber',
    label: 'Replayed an early access webhook',
    checks: 'webhook event',
  },
  'erase-held': { enquiry: false, audit: 'erase-held', label: 'Erased held enquiries', checks: 'held selection' },
  'erase-person': {
    enquiry: false,
    audit: 'person-erase',
    label: 'Erased a person’s data',
    checks: 'listed enquiries',
  },
} as const satisfies Record<string, DeskActionFacts>

export type DeskActionName = keyof typeof DESK_ACTIONS

export const DESK_ACTION_NAMES = Object.keys(DESK_ACTIONS) as DeskActionName[]

export const isDeskActionName = (value: unknown): value is DeskActionName =>
  typeof value === 'string' && Object.hasOwn(DESK_ACTIONS, value)

export const unknownActionMessage = (): string => `Unknown action: use one of ${DESK_ACTION_NAMES.join(', ')}.`

/** The trail's lines that no form posts: reads, exports, and a visitor's own withdrawal. */
const READ_LABELS: Readonly<Record<string, string>> = {
  open: 'Opened',
  export: 'Exported CSV',
  'person-search': 'Looked up a person',
  'person-export': 'Exported a person’s data',
  'early-access-export': 'Exported the early access list (CSV)',
  withdraw: 'Withdrawn by the person who wrote (receipt link)',
}

export const AUDIT_LABELS: Readonly<Record<string, string>> = {
  ...READ_LABELS,
  ...Object.fromEntries(Object.values(DESK_ACTIONS).map((facts) => [facts.audit, facts.label])),
}

/** An action not listed is shown by its code. */
export const auditLabel = (action: string): string => AUDIT_LABELS[action] ?? action
