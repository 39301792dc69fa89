import { CONTACT_FIELDS, type ContactField, ENQUIRY_FIELDS, type FieldRule } from '~/ledger'
import { type EnquiryRecord, type EnquirySource, enquiryPages, recordAudit, triageView } from '~/ledger/index.server'
import { answerResponse, forbidden } from '~/server/answer'
import { DESK_HEADERS } from '~/server/desk-path'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { filterOf, parseEnquiryListQuery } from './enquiry-list.server'
import { type Operator, operatorFor } from './operator.server'
import { RESOLUTION_LABELS, TRIAGE_LABELS } from './triage'

/** The desk as CSV: a byte-order mark for spreadsheets, and `'` before a would-be formula (OWASP CSV injection). */

/** Streamed: the Worker holds one page of them. */
export const EXPORT_LIMIT = 50_000
/** At most about 7 MB of the largest enquiries. */
export const EXPORT_PAGE_SIZE = 250

/** Each field of the registry under its CSV heading; a choice by its words. */
const FIELD_CSV_COLUMNS = CONTACT_FIELDS.map((field): readonly [ContactField | 'subjectLabel', string] => {
  const rule: FieldRule = ENQUIRY_FIELDS[field]
  return [rule.kind === 'choice' ? 'subjectLabel' : field, rule.csv ?? rule.heading]
})

export const CSV_COLUMNS = [
  ['id', 'ID'],
  ['receivedAt', 'Received'],
  ['status', 'Status'],
  ...FIELD_CSV_COLUMNS,
  ['attempts', 'Delivery attempts'],
  ['lastCause', 'Last failure'],
  ['deliveredAt', 'Delivered'],
  ['handledAt', 'Handled'],
  ['handledBy', 'Handled by'],
] as const satisfies readonly (readonly [keyof EnquiryRecord, string])[]

/** Migration 0007, last; empty where not recorded. */
export const CSV_SOURCE_COLUMNS = [
  ['page', 'Sent from page'],
  ['firstPage', 'First page'],
  ['referrerHost', 'Referrer'],
  ['utmSource', 'UTM source'],
  ['utmMedium', 'UTM medium'],
  ['utmCampaign', 'UTM campaign'],
] as const satisfies readonly (readonly [keyof EnquirySource, string])[]

/** Migration 0005, between the delivery and the source columns; "Outcome" is the resolution. */
export const CSV_TRIAGE_COLUMNS = ['Triage', 'Outcome', 'Owner', 'Reply by', 'Overdue'] as const

const HEADER = [
  ...CSV_COLUMNS.map(([, title]) => title),
  ...CSV_TRIAGE_COLUMNS,
  ...CSV_SOURCE_COLUMNS.map(([, title]) => title),
]

function triageValues(record: EnquiryRecord, now: string): string[] {
  if (!record.triage) return ['', '', '', '', '']
  const view = triageView(record.triage, now)
  return [
    TRIAGE_LABELS[view.state],
    view.resolution ? RESOLUTION_LABELS[view.resolution] : '',
    view.owner ?? '',
    view.replyBy ?? '',
    view.overdue ? 'yes' : '',
  ]
}

function csvValues(record: EnquiryRecord, now: string): (string | number | null | undefined)[] {
  return [
    ...CSV_COLUMNS.map(([key]) => record[key]),
    ...triageValues(record, now),
    ...CSV_SOURCE_COLUMNS.map(([key]) => record.source?.[key]),
  ]
}

const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return `"${text.replaceAll('"', '""')}"`
}

export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}

export function enquiriesCsv(records: readonly EnquiryRecord[], now = new Date().toISOString()): string {
  return `\uFEFF${csvRow(HEADER)}${records.map((record) => csvRow(csvValues(record, now))).join('')}`
}

type Cell = string | number | null | undefined

/** One page at a time, however long the file; an error cuts the stream rather than look complete. */
export function csvStream<T>(
  header: readonly string[],
  pages: AsyncIterator<readonly T[]>,
  values: (row: T) => Cell[],
  onEnd: (rows: number, error?: unknown) => void = () => {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let rows = 0
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(encoder.encode(`\uFEFF${csvRow(header)}`))
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
        controller.enqueue(encoder.encode(page.value.map((row) => csvRow(values(row))).join('')))
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

export const enquiriesCsvStream = (
  pages: AsyncIterator<readonly EnquiryRecord[]>,
  onEnd: (rows: number, error?: unknown) => void = () => {},
  now = new Date().toISOString(),
) => csvStream(HEADER, pages, (record) => csvValues(record, now), onEnd)

/** The first page is read before answering, so a D1 that does not answer throws here (the caller's 503);
 * the log line follows the last row. */
export async function csvDownload<T>(options: {
  requestId: string
  action: string
  operator: Operator
  filename: string
  header: readonly string[]
  values: (row: T) => Cell[]
  pages: AsyncGenerator<T[], void>
  logged?: Record<string, unknown>
}): Promise<Response> {
  const { requestId, action, pages } = options
  let first: IteratorResult<T[], void> | undefined = await pages.next()
  const body = csvStream(
    options.header,
    {
      next: () => {
        const page = first ?? pages.next()
        first = undefined
        return Promise.resolve(page)
      },
      return: () => pages.return(undefined),
    },
    options.values,
    (rows, error) => {
      if (error) log('error', { event: 'admin_error', requestId, action, rows, cause: errorCause(error) })
      else log('info', { event: 'admin', requestId, action, operator: options.operator.id, rows, ...options.logged })
    },
  )
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${options.filename}"`,
      ...DESK_HEADERS,
    },
  })
}

export async function handleExport(request: Request, env: WorkerEnv): Promise<Response> {
  const requestId = requestIdFor(request)
  const operator = await operatorFor(request, env, requestId)
  if (!operator) return forbidden()
  const query = parseEnquiryListQuery(Object.fromEntries(new URL(request.url).searchParams))
  try {
    // Never the search text: it may be a person's name or address.
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'export',
      detail: `status ${query.status ?? 'all'}${query.q ? ', with a search' : ''}`,
    })
    const now = new Date().toISOString()
    return await csvDownload({
      requestId,
      action: 'export',
      operator,
      filename: `enquiries-${now.slice(0, 10)}${query.status ? `-${query.status}` : ''}.csv`,
      header: HEADER,
      values: (record: EnquiryRecord) => csvValues(record, now),
      pages: enquiryPages(env.ENQUIRIES, filterOf(query, operator), {
        pageSize: EXPORT_PAGE_SIZE,
        limit: EXPORT_LIMIT,
      }),
      logged: { status: query.status ?? 'all' },
    })
  } catch (error) {
    log('error', { event: 'admin_error', requestId, action: 'export', cause: errorCause(error) })
    return answerResponse({ status: 503, message: 'The enquiry database did not answer. Try again.' }, DESK_HEADERS)
  }
}
