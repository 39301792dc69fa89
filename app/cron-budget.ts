/** A cron run's subrequests (Workers Free allows 50, D1 queries included: docs/operations/quotas.md); five spare. */
export const CRON_SUBREQUEST_BUDGET = 45
/** The most a delivery spends: claim, send, record, its webhooks' event, a give-up notice. */
export const DELIVERY_COST = 5
export const WEBHOOK_COST = 3
export const NOTICES_RESERVE = 10
