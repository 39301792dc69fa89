import type { EnquiryRecord, LeadSource } from '~/contact/enquiry'
import { OUTCOME_LABELS, TRIAGE_LABELS, triageView } from './triage'

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

/** Where the lead came from (migration 0007), after the columns above; empty where not recorded. */
export const CSV_SOURCE_COLUMNS = [
  ['page', 'Sent from page'],
  ['firstPage', 'First page'],
  ['referrerHost', 'Referrer'],
  ['utmSource', 'UTM source'],
  ['utmMedium', 'UTM medium'],
  ['utmCampaign', 'UTM campaign'],
] as const satisfies readonly (readonly [keyof LeadSource, string])[]

/** What the operators are doing with it (migration 0005), between the delivery and the source columns. */
export const CSV_TRIAGE_COLUMNS = ['Triage', 'Outcome', 'Owner', 'Reply by', 'Overdue'] as const

const HEADER = [
  ...CSV_COLUMNS.map(([, title]) => title),
  ...CSV_TRIAGE_COLUMNS,
  ...CSV_SOURCE_COLUMNS.map(([, title]) => title),
]

/** The triage cells, as the inbox shows them (`triageView`): the state's and outcome's labels, and overdue at `now`. */
function triageValues(record: EnquiryRecord, now: string): string[] {
  if (!record.triage) return ['', '', '', '', '']
  const view = triageView(record.triage, now)
  return [
    TRIAGE_LABELS[view.state],
    view.outcome ? OUTCOME_LABELS[view.outcome] : '',
    view.owner ?? '',
    view.replyBy ?? '',
    view.overdue ? 'yes' : '',
  ]
}

/** One record's cells, in the header's order. */
function csvValues(record: EnquiryRecord, now: string): (string | number | null | undefined)[] {
  return [
    ...CSV_COLUMNS.map(([key]) => record[key]),
    ...triageValues(record, now),
    ...CSV_SOURCE_COLUMNS.map(([key]) => record.source?.[key]),
  ]
}

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

/** The whole file, BOM first; overdue as of `now`. */
export function enquiriesCsv(records: readonly EnquiryRecord[], now = new Date().toISOString()): string {
  return `\uFEFF${csvRow(HEADER)}${records.map((record) => csvRow(csvValues(record, now))).join('')}`
}

/**
 * The same bytes as `enquiriesCsv`, as a stream that reads one page of rows at a time, only when
 * the client has taken the last (a pull stream): however many rows the export holds, the Worker
 * keeps one page in memory. `onEnd` is told how many rows were written, or the error that cut the
 * file short (the stream then errors, so the download fails rather than looking complete).
 */
export function enquiriesCsvStream(
  pages: AsyncIterator<readonly EnquiryRecord[]>,
  onEnd: (rows: number, error?: unknown) => void = () => {},
  now = new Date().toISOString(),
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let rows = 0
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(encoder.encode(`\uFEFF${csvRow(HEADER)}`))
        return
      }
      try {
        const page = await pages.next()
        if (page.done) {
          controller.close()
          onEnd(rows)
          return
        }
        rows += page.value.length
        controller.enqueue(encoder.encode(page.value.map((record) => csvRow(csvValues(record, now))).join('')))
      } catch (error) {
        controller.error(error)
        onEnd(rows, error)
      }
    },
    async cancel() {
      await pages.return?.()
    },
  })
}
