import { isSubject, subjectLabel } from '~/content/subjects'
import { type EnquiryRecord, isEnquiryStatus, type LeadSource } from './record'

/** An `enquiries` row as every query of the record reads it. */
export interface Row extends SourceRow {
  id: string
  received_at: string
  name: string
  email: string
  company: string
  subject: string
  message: string
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

export const COLUMNS =
  'id, received_at, name, email, company, subject, message, status, attempts, next_attempt_at, last_cause, delivered_at, delivered_by, held_reason, handled_at, handled_by, triage, outcome, owner, reply_by, ' +
  SOURCE_COLUMNS

export function sourceOf(row: SourceRow): LeadSource {
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
    name: row.name,
    email: row.email,
    company: row.company,
    subject: row.subject,
    subjectLabel: isSubject(row.subject) ? subjectLabel(row.subject) : row.subject,
    message: row.message,
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
