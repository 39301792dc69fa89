const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

/** A date spelled out without `Intl`, whose locale data would load while the legal pages hydrate. */
export function longDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate)
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined
  const day = match ? Number(match[3]) : 0
  if (!match || !month || day < 1 || day > 31) throw new Error(`Not a calendar date: ${isoDate}`)
  return `${day} ${month} ${match[1]}`
}
