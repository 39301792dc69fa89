/**
 * The contact flow's door for the server: what routes, the Worker's entry, the middleware and the
 * desk import. An enquiry's path reads top to bottom in `contact.server.ts`; each attempt to
 * deliver is `attempts.server.ts`, each way of delivering a module in `deliveries/`. The record
 * itself is the ledger's (app/ledger/).
 */

export { attemptNow, deliverDueEnquiries } from './attempts.server'
export { submitContact } from './contact.functions'
export { handleFormPost } from './form-post.server'
export { healthReport, publicHealth } from './health.server'
export { HELD_PER_HOUR, purgeRateCounts } from './limits.server'
export { FAILURE_MESSAGE } from './status'
export { turnstileSetup } from './turnstile.server'
