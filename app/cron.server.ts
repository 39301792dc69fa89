import {
  deliverDueEnquiries,
  deliverDueWebhooks,
  planDelivery,
  purgeRateCounts,
  webhookEndpoints,
} from './contact/index.server'
import { CRON_SUBREQUEST_BUDGET, DELIVERY_COST, NOTICES_RESERVE, WEBHOOK_COST } from './cron-budget'
import { purgeAuditTrail, purgeEarlyAccess, purgeExpiredEnquiries, purgeWebhookEvents } from './ledger/index.server'
import { runNotices } from './notices/index.server'
import { errorCause, log } from './server/log.server'
import { meteredEnv, newMeter } from './server/metered.server'
import type { WorkerEnv } from './server/runtime.server'

/** One Cron Trigger run within CRON_SUBREQUEST_BUDGET: purges (early-access entries too), then what is due, oldest first; a failing step is logged. */
export async function runScheduled(plainEnv: WorkerEnv, now = new Date()): Promise<void> {
  const meter = newMeter()
  const env = meteredEnv(plainEnv, meter)
  try {
    await purgeExpiredEnquiries(env, now)
    // After the enquiries, so their purge and its log line never depend on the counts' table.
    await purgeRateCounts(env.ENQUIRIES, now.getTime())
    await purgeWebhookEvents(env.ENQUIRIES, now)
  } catch (error) {
    log('error', { event: 'retention_error', cause: errorCause(error) })
  }
  try {
    // Pending signups past their link's 7 days, departures past 30 (docs/notices.md, "Early access").
    const purged = await purgeEarlyAccess(env.ENQUIRIES, now)
    if (purged.pending + purged.left > 0) log('info', { event: 'early_access_retention', ...purged })
  } catch (error) {
    log('error', { event: 'early_access_retention_error', cause: errorCause(error) })
  }
  try {
    await purgeAuditTrail(env, now)
  } catch (error) {
    log('error', { event: 'audit_retention_error', cause: errorCause(error) })
  }
  const forItems = CRON_SUBREQUEST_BUDGET - NOTICES_RESERVE - meter.used
  const deliveries = Math.max(1, Math.floor((forItems * 3) / 4 / DELIVERY_COST))
  const delivered = await deliverDueEnquiries(env, { limit: deliveries })
  // The meter sees e-mails, not a form service's fetch.
  if (planDelivery(plainEnv).delivery?.name !== 'email')
    meter.spend(delivered.delivered + delivered.retryScheduled + delivered.gaveUp + delivered.leaseLost)
  const webhooks = Math.max(1, Math.floor((CRON_SUBREQUEST_BUDGET - NOTICES_RESERVE - meter.used) / WEBHOOK_COST))
  try {
    meter.spend(await deliverDueWebhooks(env, now, webhooks))
  } catch (error) {
    log('error', { event: 'webhook_error', cause: errorCause(error) })
  }
  await runNotices(env, now, new Map(webhookEndpoints(env).map((endpoint) => [endpoint.name, endpoint.host])))
  log('info', {
    event: 'cron_run',
    subrequests: meter.used,
    budget: CRON_SUBREQUEST_BUDGET,
    deliveryLimit: deliveries,
    webhookLimit: webhooks,
    due: delivered.due,
  })
}
