/**
 * The subrequests one run may make: Workers Free allows 50 an invocation, D1 queries included
 * (https://developers.cloudflare.com/workers/platform/limits/, https://developers.cloudflare.com/d1/platform/limits/),
 * and a cron run is one invocation. Five stay spare.
 */
export const CRON_SUBREQUEST_BUDGET = 45
/** The most one delivery attempt spends: claim, send, record, its webhooks' event, a give-up notice. */
export const DELIVERY_COST = 5
/** The most one webhook attempt spends: claim, POST, record. */
export const WEBHOOK_COST = 3
/** Kept for the notices, which come last (an alert, the webhook alerts, the digest, their purge). */
export const NOTICES_RESERVE = 10
