/** The ledger's door for the server; the ledger imports none of its callers. */

export { type AuditRecord, activityPage, auditOf, purgeAuditTrail, recordAudit, recordOpen } from './audit.server'
export {
  confirmEarlyAccess,
  confirmedEarlyAccessPages,
  type EarlyAccessCounts,
  type EarlyAccessEntry,
  earlyAccessCounts,
  earlyAccessEntry,
  earlyAccessMoves,
  earlyAccessOf,
  isEarlyAccessId,
  leaveEarlyAccess,
  markEarlyAccessMailFailed,
  newestEarlyAccess,
  purgeEarlyAccess,
  signUpEarlyAccess,
} from './early-access.server'
export {
  type EnquiryFilter,
  enquiryCounts,
  enquiryPages,
  eraseEnquiry,
  type FirstState,
  getEnquiry,
  ledgerReadable,
  listEnquiries,
  markHandled,
  newEnquiryId,
  type StoreOutcome,
  storeEnquiry,
} from './enquiries.server'
export {
  countHeld,
  eraseHeld,
  type HeldSelection,
  type HeldSummary,
  heldSummary,
  parseHeldSelection,
} from './held.server'
export * from './index'
export {
  type AttemptRecord,
  attemptsOf,
  type Claim,
  claimEnquiry,
  countPending,
  dueEnquiryIds,
  liveLeaseUntil,
  newLeaseToken,
  recentAttempts,
  recordAttempt,
  releaseLease,
  requeueEnquiry,
} from './lease.server'
export {
  erasePersonEnquiries,
  type PersonEnquiry,
  type PersonExport,
  parsePersonEmail,
  personEnquiries,
  personExport,
} from './person.server'
export { ENQUIRY_RETENTION_DAYS, HELD_RETENTION_DAYS, heldRetentionDays, retentionDays } from './retention'
export { purgeExpiredEnquiries } from './retention.server'
export {
  NO_FIRST_PAGE,
  NO_SOURCE,
  recordSource,
  type SourceCount,
  type SourceReport,
  sourceReport,
} from './source.server'
export {
  fillReplyBy,
  markOpened,
  notesOf,
  type ReplyBySetup,
  replyBySetup,
  seenOperators,
  seeOperator,
  storedTriage,
  type TriageCounts,
  type TriageNote,
  triageCounts,
  writeTriage,
} from './triage.server'
export {
  claimWebhookEvent,
  dueWebhookEventIds,
  type EndpointHistory,
  type EventClaim,
  type OutboxAttempt,
  type OutboxEvent,
  purgeWebhookEvents,
  queueWebhookEvents,
  type RecentWebhookAttempt,
  recentWebhookAttempts,
  recordWebhookAttempt,
  requeueWebhookEvent,
  undeliveredSubscriberEvents,
  webhookEvent,
  webhookEventsOf,
} from './webhooks.server'
