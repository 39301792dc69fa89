import { log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { purgeHeldReceivedBefore, purgeReceivedBefore } from './enquiries.server'
import { heldRetentionDays, retentionDays } from './retention'

/** Past the retention, held ones past the held period; one log line, counts only, when any were deleted. */
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
  return deleted + heldDeleted
}
