import { type ContactValues, ENQUIRY_FIELDS, LINE_FIELDS } from './fields.ts'

/** An enquiry as stored; plain Node loads it, so `npm run enquiries` prints as the Worker does. */
export interface Enquiry extends ContactValues {
  id: string
  receivedAt: string
  /** The subject's words in the form (`subject` is its value, `devops`). */
  subjectLabel: string
}

/** `20261123-…`: nothing else reaches a query. */
export function isEnquiryId(value: unknown): value is string {
  return typeof value === 'string' && /^[\w-]{1,64}$/.test(value)
}

/** pending → delivered | failed; held waits for an operator's release; handled is never delivered after. */
export const ENQUIRY_STATUSES = ['pending', 'delivered', 'failed', 'held', 'handled'] as const
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number]

export function isEnquiryStatus(value: unknown): value is EnquiryStatus {
  return typeof value === 'string' && (ENQUIRY_STATUSES as readonly string[]).includes(value)
}

export interface EnquiryRecord extends Enquiry {
  status: EnquiryStatus
  attempts: number
  nextAttemptAt: string | null
  lastCause: string | null
  deliveredAt: string | null
  deliveredBy: string | null
  heldReason: string | null
  handledAt: string | null
  handledBy: string | null
  /** Migration 0007; a null field was not recorded. */
  source?: EnquirySource
  /** Migration 0005, read through `triageView`. */
  triage?: EnquiryTriage
}

export interface EnquiryTriage {
  state: string
  resolution: string | null
  owner: string | null
  replyBy: string | null
}

export interface EnquirySource {
  /** The page the form was sent from (a path on this site). */
  page: string | null
  firstPage: string | null
  /** The linking site's host, never its address. */
  referrerHost: string | null
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
}

export interface DeliveryAttempt {
  attempt: number
  attemptedAt: string
  delivery: string
  outcome: 'delivered' | 'failed'
  cause: string | null
}

/** `Name:     Asha`: each one-line field under its heading, `—` when empty. */
export function fieldLines(enquiry: Enquiry): string[] {
  return LINE_FIELDS.map((field) => `${`${ENQUIRY_FIELDS[field].heading}:`.padEnd(10)}${enquiry[field] || '—'}`)
}

export function formatEnquiry(record: Enquiry | EnquiryRecord, attempts: readonly DeliveryAttempt[] = []): string {
  // Inside the function: a top-level call would be kept in every bundle that imports this file.
  const RULE = '─'.repeat(64)
  const lines = [
    RULE,
    `Enquiry ${record.id}`,
    `Received: ${record.receivedAt}`,
    `Subject:  ${record.subjectLabel === record.subject ? record.subject : `${record.subjectLabel} (${record.subject})`}`,
    ...fieldLines(record),
  ]
  if ('status' in record) {
    const state =
      record.status === 'delivered'
        ? `delivered ${record.deliveredAt ?? ''} by ${record.deliveredBy ?? '?'}`
        : record.status === 'pending'
          ? `pending, next attempt ${record.nextAttemptAt ?? 'not scheduled'}`
          : record.status === 'held'
            ? `held (${record.heldReason ?? 'no reason recorded'}): not delivered until an operator releases it`
            : record.status === 'handled'
              ? `handled ${record.handledAt ?? ''} by ${record.handledBy ?? '?'}`
              : 'failed: every attempt was used'
    lines.push(`Status:   ${state} (${record.attempts} attempt${record.attempts === 1 ? '' : 's'})`)
    if (record.lastCause) lines.push(`Last failure: ${record.lastCause}`)
  }
  for (const attempt of attempts) {
    lines.push(
      `  #${attempt.attempt} ${attempt.attemptedAt} ${attempt.delivery}: ${attempt.outcome}${attempt.cause ? ` (${attempt.cause})` : ''}`,
    )
  }
  lines.push('Message:', ...record.message.split(/\r\n|\r|\n/).map((line) => `  ${line}`), RULE)
  return lines.join('\n')
}
