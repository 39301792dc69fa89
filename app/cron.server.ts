import { deliverDueEnquiries, deliverDueWebhooks, purgeRateCounts, webhookEndpoints } from './contact/index.server'
import { purgeAuditTrail, purgeEarlyAccess, purgeExpiredEnquiries, purgeWebhookEvents } from './ledger/index.server'
import { runNotices } from './notices/index.server'
import { errorCause, log } from './server/log.server'
import type { WorkerEnv } from './server/runtime.server'

/** One Cron Trigger run: purges (early-access entries too), then what is due; a failing step is logged and the run goes on. */
export async function runScheduled(env: WorkerEnv, now = new Date()): Promise<void> {
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
  await deliverDueEnquiries(env)
  try {
    await deliverDueWebhooks(env, now)
  } catch (error) {
    log('error', { event: 'webhook_error', cause: errorCause(error) })
  }
  await runNotices(env, now, new Map(webhookEndpoints(env).map((endpoint) => [endpoint.name, endpoint.host])))
}
