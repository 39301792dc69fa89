import { sample } from '~/site'

/**
 * Facts about what is kept and for how long. The privacy page (app/content/legal.ts) states them
 * from here, and the code that keeps the data reads the same values, so the two cannot drift:
 * - `ENQUIRY_RETENTION_DAYS` in wrangler.toml equals `enquiryRetentionDays` (checked by
 *   tests/unit/ops-config.test.ts); the enquiry store's purge reads the var and falls back to this.
 * - Workers Logs keeps invocation logs and the site's own log lines for at most `logRetentionDays`
 *   (7 days on Workers Paid, 3 on Free: https://developers.cloudflare.com/workers/observability/logs/workers-logs/#limits).
 * - D1 Time Travel keeps the database's restorable history for `restoreHistoryDays`: 30 days on
 *   Workers Paid, 7 on Free (https://developers.cloudflare.com/d1/platform/limits/); the page states
 *   the longer, which holds on either plan.
 */
export const facts = {
  /** Days an enquiry is kept after it was received, then purged: 730 days, 24 months. A legal commitment: sample until confirmed. */
  enquiryRetentionDays: sample(730),
  /** Held (suspected spam): much sooner than a real one, so a flood cannot fill the database. */
  heldRetentionDays: 14,
  /** The audit trail; the database refuses to delete a younger line (migrations/0006_audit.sql). */
  auditRetentionDays: 400,
  logRetentionDays: 7,
  restoreHistoryDays: 30,
  /** The law the terms are governed by (sample until confirmed). */
  governingLaw: sample('the laws of India'),
  /** The courts named in the terms of service (sample until confirmed). */
  jurisdiction: sample('the courts of Andhra Pradesh'),
} as const

/** A retention period in whole months, as the privacy page says it (730 days → 24 months). */
export function retentionMonths(days: number = facts.enquiryRetentionDays): number {
  return Math.round(days / (365 / 12))
}
