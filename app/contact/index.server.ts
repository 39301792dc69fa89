/** The contact flow's door for the server. The record itself is the ledger's (app/ledger/). */

export { attemptNow, deliverDueEnquiries } from './attempts.server'
export { submitContact } from './contact.functions'
export { planDelivery } from './deliveries/index.server'
export { earlyAccessPanel, earlyAccessReturn, handleEarlyAccessPost } from './early-access-post.server'
export { handleFormPost } from './form-post.server'
export { healthReport, publicHealth } from './health.server'
export { HELD_CEILING_PER_HOUR, HELD_PER_HOUR, purgeRateCounts, underFloodLimits } from './limits.server'
export { FAILURE_MESSAGE } from './status'
export { turnstileSetup } from './turnstile.server'
export { type WebhookEndpoint, webhookSetup, webhookSetupLines } from './webhooks'
export {
  attemptWebhookNow,
  deliverDueWebhooks,
  replayWebhook,
  subscriberAnnouncer,
  webhookEndpoints,
} from './webhooks.server'
