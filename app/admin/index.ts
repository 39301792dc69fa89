/**
 * The operator's inbox, its front door for the browser side: what the inbox's pages and their
 * components import. The server side's is `index.server.ts`. Each page's `head()` imports
 * `head.ts` itself: it stays in the route tree every page loads, which must not carry the inbox's
 * server functions.
 */

export { type ActivityLine, AUDIT_LABELS, type AuditLine, auditLabel } from './audit'
export { loadActivity, loadOperator, loadPerson, loadPersonErasure } from './desk.functions'
export { loadEnquiry, loadHeldErasure, loadInbox } from './inbox.functions'
export { mailtoHref } from './mailto'
export { ADMIN_ACTIONS, type AdminAction, isNotice, NOTICES, type Notice } from './notices'
export { enquiryPath, heldErasePath } from './paths'
export { loadSources } from './sources.functions'
export {
  allowedStates,
  NOTE_MAX,
  OUTCOME_LABELS,
  OUTCOMES,
  type Outcome,
  TRIAGE_LABELS,
  TRIAGE_STATES,
  type TriageQuery,
  type TriageState,
  type TriageView,
  triageParams,
} from './triage'
export type { TriageCounts, TriageDetail, TriageListData, TriageNote } from './triage.server'
