/**
 * An enquiry as the server delivers and keeps it. Pure data and formatting, with no imports,
 * so the `npm run outbox` script can print stored enquiries the same way the Worker does.
 */
export interface Enquiry {
  /** Unique, sortable by time: `<received ISO time>-<random>`. */
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

/** What the outbox stores: the enquiry and why it was kept. */
export interface OutboxRecord extends Enquiry {
  /** e.g. `outbox selected`, `CONTACT_FORM_ACCESS_KEY is not set`, `form-service failed: upstream_timeout`. */
  keptBecause: string
}

/** KV key prefix of stored enquiries; keys sort by time of arrival. */
export const OUTBOX_PREFIX = 'enquiry:'

export function outboxKey(enquiry: Pick<Enquiry, 'id'>): string {
  return `${OUTBOX_PREFIX}${enquiry.id}`
}

const RULE = '─'.repeat(64)

/** One enquiry as a readable block of text, for the local server log and `npm run outbox`. */
export function formatEnquiry(record: OutboxRecord | Enquiry, key?: string): string {
  const lines = [
    RULE,
    `Enquiry ${key ?? outboxKey(record)}`,
    `Received: ${record.receivedAt}`,
    `Subject:  ${record.subjectLabel} (${record.subject})`,
    `Name:     ${record.name}`,
    `Email:    ${record.email}`,
    `Company:  ${record.company || '—'}`,
  ]
  if ('keptBecause' in record) lines.push(`Kept:     ${record.keptBecause}`)
  lines.push('Message:', ...record.message.split(/\r\n|\r|\n/).map((line) => `  ${line}`), RULE)
  return lines.join('\n')
}
