import { log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { purgeRateCounts } from './limits.server'
// The rule (how many days) is `retention.ts`, apart from this purge: `scripts/ci/purge-previews.ts`
// loads it under plain Node, where the store and the limits (build-time constants) cannot load.
import { heldRetentionDays, retentionDays } from './retention'
import { purgeHeldReceivedBefore, purgeReceivedBefore } from './store.server'

/**
 * Part of every Cron Trigger run: deletes the enquiries (and their delivery history) received
 * longer ago than the retention period, the held ones (never released) after the held period, and
 * the rate-limit counts of past windows. One log line when any enquiries were deleted, with the
 * counts only. Returns how many enquiries were deleted.
 */
export async function purgeExpiredEnquiries(env: WorkerEnv, now = new Date()): Promise<number> {
  const days = retentionDays(env.ENQUIRY_RETENTION_DAYS)
  const heldDays = heldRetentionDays(env.ENQUIRY_RETENTION_DAYS)
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString()
  const heldCutoff = new Date(now.getTime() - heldDays * 86_400_000).toISOString()
  const deleted = await purgeReceivedBefore(env.ENQUIRIES, cutoff)
  const heldDeleted = await purgeHeldReceivedBefore(env.ENQUIRIES, heldCutoff)
  if (deleted + heldDeleted > 0)
    log('info', {
      event: 'retention',
      deleted: deleted + heldDeleted,
      held: heldDeleted,
      retentionDays: days,
      heldRetentionDays: heldDays,
      cutoff,
      heldCutoff,
    })
  // Last, so the enquiries' purge and its log line never depend on it.
  await purgeRateCounts(env.ENQUIRIES, now.getTime())
  return deleted + heldDeleted
}
