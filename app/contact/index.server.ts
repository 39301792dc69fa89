/**
 * The contact flow's front door for the server side: what routes, the Worker's entry and the
 * request middleware import. The enquiry's path reads top to bottom in `contact.server.ts`
 * (validate → store → deliver → answer); delivery and its retries are in `delivery.server.ts`,
 * the D1 record in `store.server.ts`, each way of delivering in `deliveries/`.
 */

export { methodNotAllowed } from '~/server/json-answer'
export { submitContact } from './contact.functions'
export { deliverDueEnquiries } from './delivery.server'
export { handleFormPost } from './form-post.server'
export { healthReport, publicHealth } from './health.server'
export { workerRuntime } from './runtime.server'
export { markServerFnStarted, refuseUndecodableServerFnCalls } from './server-fn-guard'
