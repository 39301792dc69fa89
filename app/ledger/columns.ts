import { isSubject, subjectLabel } from '~/content/subjects'
import { CONTACT_FIELDS, type ContactField, ENQUIRY_FIELDS, FIELD_COLUMNS } from './fields'
import { type EnquiryRecord, type EnquirySource, isEnquiryStatus } from './record'

/** The registry's fields by their columns (`contact/fields.ts`). */
export type FieldColumns = { [F in ContactField as (typeof ENQUIRY_FIELDS)[F]['column']]: string }

/** An `enquiries` row as every query of the record reads it. */
export interface Row extends SourceRow, FieldColumns {
  id: string
  received_at: string
  status: string
  attempts: number
  next_attempt_at: string | null
  last_cause: string | null
  delivered_at: string | null
  delivered_by: string | null
  held_reason: string | null
  handled_at: string | null
  handled_by: string | null
  triage: string
  outcome: string | null
  owner: string | null
  reply_by: string | null
}

export const SOURCE_COLUMNS = 'source_page, first_page, referrer_host, utm_source, utm_medium, utm_campaign'

export interface SourceRow {
  source_page?: string | null
  first_page?: string | null
  referrer_host?: string | null
  utm_source?: string | null
  utm_medium?: string | null
  utm_campaign?: string | null
}

export const COLUMNS = `id, received_at, ${FIELD_COLUMNS.join(', ')}, status, attempts, next_attempt_at, last_cause, delivered_at, delivered_by, held_reason, handled_at, handled_by, triage, outcome, owner, reply_by, ${SOURCE_COLUMNS}`

/** Each field's value from its column. */
export function fieldValues(row: FieldColumns): Record<ContactField, string> {
  return Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, (row as Record<string, string>)[ENQUIRY_FIELDS[field].column] ?? '']),
  ) as Record<ContactField, string>
}

export function sourceOf(row: SourceRow): EnquirySource {
  return {
    page: row.source_page ?? null,
    firstPage: row.first_page ?? null,
    referrerHost: row.referrer_host ?? null,
    utmSource: row.utm_source ?? null,
    utmMedium: row.utm_medium ?? null,
    utmCampaign: row.utm_campaign ?? null,
  }
}

export function toRecord(row: Row): EnquiryRecord {
  return {
    id: row.id,
    receivedAt: row.received_at,
    ...fieldValues(row),
    subjectLabel: isSubject(row.subject) ? subjectLabel(row.subject) : row.subject,
    status: isEnquiryStatus(row.status) ? row.status : 'pending',
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastCause: row.last_cause,
    deliveredAt: row.delivered_at,
    deliveredBy: row.delivered_by,
    heldReason: row.held_reason,
    handledAt: row.handled_at,
    handledBy: row.handled_by,
    source: sourceOf(row),
    triage: { state: row.triage, resolution: row.outcome, owner: row.owner, replyBy: row.reply_by },
  }
}
