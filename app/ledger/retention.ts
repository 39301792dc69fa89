import { facts } from '~/content/facts'

/** How long an enquiry is kept, one fact for the purge and the privacy page; plain Node loads it. */

/** 730 days, "24 months". */
export const ENQUIRY_RETENTION_DAYS: number = facts.enquiryRetentionDays

/** `ENQUIRY_RETENTION_DAYS` may shorten the promised period (whole days from 1), never lengthen it. */
export function retentionDays(value: string | undefined): number {
  const days = Number(value?.trim() || Number.NaN)
  return Number.isInteger(days) && days >= 1 && days <= ENQUIRY_RETENTION_DAYS ? days : ENQUIRY_RETENTION_DAYS
}

/** 14 days, as the privacy page says. */
export const HELD_RETENTION_DAYS: number = facts.heldRetentionDays

/** Or the general period, when that is set shorter. */
export function heldRetentionDays(value: string | undefined): number {
  return Math.min(HELD_RETENTION_DAYS, retentionDays(value))
}
