/** The ledger's door for code any bundle may carry: nothing here reads D1 (that is `index.server.ts`). */

export type { ActivityLine, AuditLine } from './audit'
export {
  addressKey,
  type ConfirmAnswer,
  EARLY_ACCESS_FIELDS,
  EARLY_ACCESS_STATES,
  type EarlyAccessState,
  LEFT_DAYS,
  type LeaveAnswer,
  PENDING_DAYS,
} from './early-access'
export type { EnquiryCounts } from './enquiries.server'
// The enquiry's fields, each declared once: the whole registry is public.
export * from './fields'
export type { HeldSummary } from './held.server'
export { LEASE_MS, RELEASE_FROM, RETRY_FROM } from './lease'
export type { RecentAttempt } from './lease.server'
export {
  type DeliveryAttempt,
  ENQUIRY_STATUSES,
  type Enquiry,
  type EnquiryRecord,
  type EnquirySource,
  type EnquiryStatus,
  type EnquiryTriage,
  fieldLines,
  formatEnquiry,
  isEnquiryId,
  isEnquiryStatus,
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
