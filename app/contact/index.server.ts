/**
 * The contact flow's front door for the server side: what routes, the Worker's entry, the request
 * middleware and the inbox import. The enquiry's path reads top to bottom in `contact.server.ts`
 * (validate → store → deliver → answer); each attempt to deliver and its retries are in
 * `attempts.server.ts`, the D1 record in `store.server.ts`, each way of delivering in `deliveries/`.
 */

export { attemptDelivery, deliverDueEnquiries, LEASE_MS } from './attempts.server'
export { submitContact } from './contact.functions'
export {
  type DeliveryAttempt,
  ENQUIRY_STATUSES,
  type EnquiryRecord,
  type EnquiryStatus,
  isEnquiryStatus,
} from './enquiry'
export { handleFormPost } from './form-post.server'
export { healthReport, publicHealth } from './health.server'
export {
  countHeld,
  eraseHeld,
  type HeldSelection,
  type HeldSummary,
  heldSummary,
  parseHeldSelection,
} from './held.server'
export { RELEASE_FROM, RETRY_FROM } from './lease'
export { HELD_PER_HOUR } from './limits.server'
export { heldRetentionDays, retentionDays } from './retention'
export { purgeExpiredEnquiries } from './retention.server'
export { FAILURE_MESSAGE } from './status'
export {
  attemptsOf,
  bounded,
  claimEnquiry,
  database,
  type EnquiryFilter,
  enquiryPages,
  eraseEnquiry,
  getEnquiry,
  listEnquiries,
  liveLeaseUntil,
  markHandled,
  requeueEnquiry,
} from './store.server'
export { turnstileSetup } from './turnstile.server'
