import { facts } from '~/content/facts'

/**
 * How long the website keeps an enquiry: the Cron Trigger deletes enquiries received longer ago
 * than this, and the privacy page states the same period (both read `facts.enquiryRetentionDays`),
 * so the two cannot disagree.
 *
 * The rule only, with no server import: `scripts/ci/purge-previews.ts` loads it under plain Node for
 * the previews' database. The Cron Trigger's purge that applies it is `retention.server.ts`.
 */

/** The period the privacy page promises (730 days, "24 months"). */
export const ENQUIRY_RETENTION_DAYS: number = facts.enquiryRetentionDays

/**
 * The retention in effect: `ENQUIRY_RETENTION_DAYS` when set to a whole number of days from 1 up to
 * the promised period, else the promised period. The variable can shorten the period, never
 * lengthen it past what the privacy page says.
 */
export function retentionDays(value: string | undefined): number {
  const days = Number(value?.trim() || Number.NaN)
  return Number.isInteger(days) && days >= 1 && days <= ENQUIRY_RETENTION_DAYS ? days : ENQUIRY_RETENTION_DAYS
}

/** How long a held enquiry (never released) is kept: 14 days, as the privacy page says. */
export const HELD_RETENTION_DAYS: number = facts.heldRetentionDays

/** The held enquiries' period in effect: 14 days, or the general period when that is set shorter. */
export function heldRetentionDays(value: string | undefined): number {
  return Math.min(HELD_RETENTION_DAYS, retentionDays(value))
}
