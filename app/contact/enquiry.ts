/**
 * An enquiry as the server stores, delivers and shows it. Pure data and formatting, with no
 * imports, so the `npm run enquiries` script prints stored enquiries the same way the Worker does.
 */
export interface Enquiry {
  /** Random and URL-safe. */
  id: string
  receivedAt: string
  name: string
  email: string
  company: string
  /** Subject value, e.g. `devops`. */
  subject: string
  /** Subject as shown in the form, e.g. `DevOps & Cloud Automation`. */
  subjectLabel: string
  message: string
}

/**
 * pending → delivered | failed. held: stored but not delivered until an operator releases it
 * (→ pending). handled: an operator has dealt with it; it is never delivered after that.
 */
export const ENQUIRY_STATUSES = ['pending', 'delivered', 'failed', 'held', 'handled'] as const
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number]

export function isEnquiryStatus(value: unknown): value is EnquiryStatus {
  return typeof value === 'string' && (ENQUIRY_STATUSES as readonly string[]).includes(value)
}

/** An enquiry with its delivery state, as kept in D1. */
export interface EnquiryRecord extends Enquiry {
  status: EnquiryStatus
  /** Delivery attempts made so far. */
  attempts: number
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null
  /** The last failure's cause, a code such as `upstream_timeout`. */
  lastCause: string | null
  deliveredAt: string | null
  /** The delivery that delivered it. */
  deliveredBy: string | null
  /** Why it is held (a code), while it is held. */
  heldReason: string | null
  /** When an operator marked it handled, and who. */
  handledAt: string | null
  handledBy: string | null
  /** Where the lead came from (migration 0007); absent or null fields were not recorded. */
  source?: LeadSource
  /** What the operators are doing with it (migration 0005; its rules: app/admin/triage.ts). */
  triage?: EnquiryTriage
}

/** An enquiry's triage as stored: the inbox reads the state and outcome through app/admin/triage.ts. */
export interface EnquiryTriage {
  /** new | open | replied | closed */
  state: string
  /** won | lost | not_a_fit | spam, once closed */
  outcome: string | null
  /** The operator who has it (their e-mail), or null. */
  owner: string | null
  /** When a reply is due (ISO 8601 UTC), or null. */
  replyBy: string | null
}

/** Where a lead came from, as stored: each field null when it was not recorded. */
export interface LeadSource {
  /** The page the form was sent from (a path on this site). */
  page: string | null
  /** The first page of the visit on this site. */
  firstPage: string | null
  /** The host of the other site that linked to the visit (never the full address). */
  referrerHost: string | null
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
}

/** One delivery attempt, for an enquiry's history. */
export interface DeliveryAttempt {
  attempt: number
  attemptedAt: string
  delivery: string
  outcome: 'delivered' | 'failed'
  cause: string | null
}

const RULE = '─'.repeat(64)

/** One enquiry as a readable block of text, for the local server log and `npm run enquiries`. */
export function formatEnquiry(record: Enquiry | EnquiryRecord, attempts: readonly DeliveryAttempt[] = []): string {
  const lines = [
    RULE,
    `Enquiry ${record.id}`,
    `Received: ${record.receivedAt}`,
    `Subject:  ${record.subjectLabel === record.subject ? record.subject : `${record.subjectLabel} (${record.subject})`}`,
    `Name:     ${record.name}`,
    `Email:    ${record.email}`,
    `Company:  ${record.company || '—'}`,
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
