/**
 * The operator's inbox, its front door for the server side: what the request middleware and the
 * inbox's server routes import. Who may open it is `access.server.ts`; what it shows and does,
 * `inbox.server.ts`.
 */

export { type AuditRecord, purgeAuditTrail, recordAudit } from './audit.server'
export { ADMIN_HEADERS, forbidden, handleAdminAction, handleExport, operatorFor } from './inbox.server'
export { isAdminPath } from './paths'
export { handlePersonExport } from './person-export.server'
export { fillReplyBy } from './triage.server'
