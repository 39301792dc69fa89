import type { EnquiryRecord } from '~/contact/enquiry'

/**
 * The inbox's CSV export: UTF-8 with a byte-order mark (so spreadsheet programs read it as
 * UTF-8), CRLF line ends, every field quoted. A cell a spreadsheet would run as a formula (one
 * beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a leading `'`,
 * so it shows as text. https://owasp.org/www-community/attacks/CSV_Injection
 */
export const CSV_COLUMNS = [
  ['id', 'ID'],
  ['receivedAt', 'Received'],
  ['status', 'Status'],
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['company', 'Company'],
  ['subjectLabel', 'Subject'],
  ['message', 'Message'],
  ['attempts', 'Delivery attempts'],
  ['lastCause', 'Last failure'],
  ['deliveredAt', 'Delivered'],
  ['handledAt', 'Handled'],
  ['handledBy', 'Handled by'],
] as const satisfies readonly (readonly [keyof EnquiryRecord, string])[]

const FORMULA_START = /^[=+\-@\t\r]/

/** One cell: neutralised if it would start a formula, quoted, inner quotes doubled. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return `"${text.replaceAll('"', '""')}"`
}

export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}

/** The whole file, BOM first. */
export function enquiriesCsv(records: readonly EnquiryRecord[]): string {
  return `\uFEFF${csvRow(CSV_COLUMNS.map(([, title]) => title))}${records
    .map((record) => csvRow(CSV_COLUMNS.map(([key]) => record[key])))
    .join('')}`
}
