import { sample } from '~/site'

/** What is kept and for how long: the privacy page and the code read the same values, so they cannot drift. */
export const facts = {
  /** Days an enquiry is kept after it was received, then purged: 730 days, 24 months. A legal commitment: sample until confirmed. */
  enquiryRetentionDays: sample(730),
  /** Held (suspected spam): much sooner than a real one, so a flood cannot fill the database. */
  heldRetentionDays: 14,
  /** The audit trail; the database refuses to delete a younger line (migrations/0006_audit.sql). */
  auditRetentionDays: 400,
  logRetentionDays: 7,
  /** D1 Time Travel's restorable history: 30 days on Workers Paid, 7 on Free (https://developers.cloudflare.com/d1/platform/limits/); the longer holds on either. */
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
