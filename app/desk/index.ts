/** A page's `head()` imports `head.ts` itself: every page's route tree must not carry server functions. */

export {
  type ActivityLine,
  type AuditLine,
  ENQUIRY_FIELDS,
  ENQUIRY_STATUSES,
  type EnquirySource,
  type EnquiryStatus,
  type HeldSummary,
  LINE_FIELDS,
  TRIAGE_STATES,
  type TriageView,
} from '~/ledger'

export { auditLabel, type DeskActionName } from './actions'
export type { TriageDetail } from './enquiry.server'
export type { TriageListData } from './enquiry-list.server'
export { FLASHES, type Flash, isFlash } from './flash'
export { mailtoHref } from './mailto'
export { lastMoveText, SEEN_STATUS } from './moves'
export { confirmTarget, deskEffect } from './navigation'
export {
  loadActivity,
  loadEarlyAccess,
  loadEnquiry,
  loadEnquiryList,
  loadHeldErasure,
  loadOperator,
  loadPerson,
  loadPersonErasure,
  loadSetup,
  loadSources,
} from './pages.functions'
export { enquiryPath, heldErasePath } from './paths'
export type { DeliverySetup } from './setup.server'
export {
  allowedStates,
  NOTE_MAX,
  RESOLUTION_LABELS,
  seenFields,
  TRIAGE_LABELS,
  type TriageQuery,
  triageParams,
} from './triage'
export type { EndpointAttempts } from './webhooks.server'
