/**
 * How long the website keeps an enquiry: the Cron Trigger deletes enquiries received longer ago
 * than this, and the privacy page states the same period (it reads these values), so the two
 * cannot disagree. No imports: the privacy page's content and the Worker both use it.
 */

/** The period the privacy page promises: 730 days, "24 months". */
export const ENQUIRY_RETENTION_DAYS = 730

/**
 * The retention in effect: `ENQUIRY_RETENTION_DAYS` when set to a whole number of days from 1 up to
 * the promised period, else the promised period. The variable can shorten the period, never
 * lengthen it past what the privacy page says.
 */
export function retentionDays(value: string | undefined): number {
  const days = Number(value?.trim() || Number.NaN)
  return Number.isInteger(days) && days >= 1 && days <= ENQUIRY_RETENTION_DAYS ? days : ENQUIRY_RETENTION_DAYS
}

/** The period in words, as the privacy page says it: whole years as months ("24 months"), else days. */
export function retentionPeriodText(days: number = ENQUIRY_RETENTION_DAYS): string {
  if (days % 365 === 0) return `${(days / 365) * 12} months`
  return `${days} day${days === 1 ? '' : 's'}`
}
