import { log } from '~/server/log.server'
import { retentionDays } from './retention'
import { purgeReceivedBefore } from './store.server'

export interface RetentionEnv {
  ENQUIRIES?: D1Database
  ENQUIRY_RETENTION_DAYS?: string
}

/**
 * Part of every Cron Trigger run: deletes the enquiries (and their delivery history) received
 * longer ago than the retention period. One log line when any were deleted, with the count only.
 */
export async function purgeExpiredEnquiries(env: RetentionEnv, now = new Date()): Promise<number> {
  const days = retentionDays(env.ENQUIRY_RETENTION_DAYS)
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString()
  const deleted = await purgeReceivedBefore(env.ENQUIRIES, cutoff)
  if (deleted > 0) log('info', { event: 'retention', deleted, retentionDays: days, cutoff })
  return deleted
}
