/** An action not listed is shown by its code. */
export const AUDIT_LABELS: Readonly<Record<string, string>> = {
  open: 'Opened',
  export: 'Exported CSV',
  handled: 'Marked handled',
  retry: 'Retried delivery',
  release: 'Released',
  replay: 'Replayed a webhook',
  erase: 'Erased',
  'erase-held': 'Erased held enquiries',
  'person-search': 'Looked up a person',
  'person-export': 'Exported a person’s data',
  'person-erase': 'Erased a person’s data',
  'triage-take': 'Took it',
  'triage-assign': 'Assigned',
  'triage-state': 'Changed its state',
  'triage-close': 'Closed',
  'triage-note': 'Added a note',
  withdraw: 'Withdrawn by the person who wrote (receipt link)',
}

export const auditLabel = (action: string): string => AUDIT_LABELS[action] ?? action

export interface AuditLine {
  seq: number
  at: string
  operator: string
  action: string
  enquiryId: string | null
  detail: string
}

/** With whether its enquiry is still stored. */
export interface ActivityLine extends AuditLine {
  enquiryStored: boolean
}
