import type { EnquiryCounts } from '~/ledger'

/** The daily digest, pure: when it is due, and its words. `notices.server.ts` counts and sends. */

export const DEFAULT_DIGEST_HOUR_UTC = 7

/** `DIGEST_HOUR_UTC`, 0–23; unset: the default; `off` or anything else: null. */
export function digestHour(raw: string | undefined): number | null {
  const value = raw?.trim()
  if (!value) return DEFAULT_DIGEST_HOUR_UTC
  if (!/^\d{1,2}$/.test(value)) return null
  const hour = Number(value)
  return hour <= 23 ? hour : null
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** Null before the hour; once a day, since the caller claims the day. */
export function digestDueDay(now: Date, hour: number): string | null {
  return now.getUTCHours() >= hour ? utcDay(now) : null
}

/** Each count with the desk view that lists it. */
export function digestMessage(
  counts: EnquiryCounts,
  options: { siteName: string; deskLink: string; day: string; earlyAccess?: { confirmed: number; left: number } },
): { subject: string; text: string } {
  const early = options.earlyAccess
  const list = `${options.deskLink}/early-access`
  const link = (status?: string) => (status ? `${options.deskLink}?status=${status}` : options.deskLink)
  const row = (label: string, n: number, url: string) => `${label.padEnd(28)}${String(n).padStart(5)}   ${url}`
  const text = [
    `The ${options.siteName} website's enquiries on ${options.day} (UTC).`,
    '',
    row('Received in the last 24 h', counts.received, link()),
    row('Delivered in the last 24 h', counts.delivered, link('delivered')),
    row('Held (spam check), waiting', counts.held, link('held')),
    row('Failing delivery now', counts.failing, link('failed')),
    row('Overdue', counts.overdue, `${options.deskLink}?overdue=yes`),
    ...(early
      ? [row('Early access confirmed, 24 h', early.confirmed, list), row('Early access left, 24 h', early.left, list)]
      : []),
    '',
    'Overdue: nobody has replied to it or closed it by its reply-by time (one business day unless set otherwise).',
    'Failing: failed, or pending after a failed attempt; the pending ones are retried on schedule.',
    '',
  ].join('\n')
  const attention = counts.failing + counts.overdue + counts.held
  return {
    subject: `Enquiries ${options.day}: ${counts.received} received${attention ? `, ${attention} need a look` : ''} — ${options.siteName}`,
    text,
  }
}
