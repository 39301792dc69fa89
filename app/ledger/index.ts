/**
 * The ledger's door for code any bundle may carry: the enquiry as stored and its fields, the
 * triage's states and the reply-by and overdue rule, the audit trail's lines. Nothing here reads
 * D1; server code imports `index.server.ts`, which hands on these names too.
 */

export { type ActivityLine, AUDIT_LABELS, type AuditLine, auditLabel } from './audit'
export type { EnquiryCounts } from './enquiries.server'
export type { HeldSummary } from './held.server'
export { LEASE_MS, RELEASE_FROM, RETRY_FROM } from './lease'
export type { RecentAttempt } from './lease.server'
export {
  type DeliveryAttempt,
  ENQUIRY_STATUSES,
  type Enquiry,
  type EnquiryRecord,
  type EnquiryStatus,
  type EnquiryTriage,
  formatEnquiry,
  isEnquiryId,
  isEnquiryStatus,
  type LeadSource,
} from './record'
export {
  isOverdue,
  isResolution,
  isTriageState,
  RESOLUTIONS,
  type Resolution,
  replyBy,
  replyByHours,
  TRIAGE_STATES,
  type TriageFacts,
  type TriageFilter,
  type TriageState,
  type TriageView,
  triageView,
} from './triage'
export type { RecentWebhookAttempt } from './webhooks.server'
