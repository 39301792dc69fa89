import type { ReactNode } from 'react'
import { type EnquiryStatus, enquiryPath } from '~/desk'
import { formatTime, linkStyle, StatusLabel } from './desk-ui'

/**
 * One column of a desk table. On a phone (desk.css, `.desk-table`) each row becomes a card: the
 * `title` column on a line of its own, the others after it in order, each led by its head, the
 * `last` one at the end, and a `hide` column left to the row's own page.
 */
export interface DeskColumn<Row> {
  head: string
  cell: (row: Row) => ReactNode
  /** Classes of its cells beside the table's own (`text-muted`, `whitespace-nowrap`, …). */
  className?: string
  card?: 'title' | 'last' | 'hide'
}

/** Every table of the desk: one scaffold, a caption for screen readers, a card a row on a phone; nothing without rows. */
export function DeskTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  marker,
  wide = true,
  className = 'mt-3',
  captionVisible = false,
}: {
  caption: ReactNode
  /** Shown above the table (a small table's title), else for screen readers only. */
  captionVisible?: boolean
  columns: readonly DeskColumn<Row>[]
  rows: readonly Row[]
  /** The field that tells the rows apart. */
  rowKey: keyof Row & string
  /** An attribute that carries that field on each row (`data-enquiry`), for scripts and tests. */
  marker?: `data-${string}`
  /** A table of many columns: cards on a phone. A narrow one stays a table at every width. */
  wide?: boolean
  className?: string
}) {
  if (rows.length === 0) return null
  return (
    <div className={`${wide ? 'desk-table' : ''} ${className}`}>
      <table className="w-full border-collapse text-left">
        <caption className={captionVisible ? 'text-left font-medium text-fg' : 'sr-only'}>{caption}</caption>
        <thead>
          <tr className="border-b border-line-strong text-sm text-muted">
            {columns.map((column) => (
              <th key={column.head} scope="col" className="py-2 pr-4 font-medium">
                {column.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={String(row[rowKey])}
              className="border-b border-line align-top"
              {...(marker ? { [marker]: String(row[rowKey]) } : {})}
            >
              {columns.map((column) => (
                <td
                  key={column.head}
                  data-label={column.head}
                  data-card={column.card}
                  className={`py-2 pr-4 ${column.className ?? ''}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** An e-mail address that wraps only after its `@` or a dot, never inside a word. */
export function Address({ address }: { address: string }) {
  // Each break keyed by where it stands in the address.
  const breaks = [...address.matchAll(/[@.]/g)].map((match) => (match.index ?? 0) + 1)
  const starts = [0, ...breaks]
  return (
    <span className="desk-address">
      {starts.flatMap((start, i) => {
        const part = address.slice(start, starts[i + 1])
        return start === 0 ? [part] : [<wbr key={start} />, part]
      })}
    </span>
  )
}

/** What every list of enquiries shows of one: each column once, for the inbox and a person's requests. */
interface EnquiryRow {
  id: string
  receivedAt: string
  name: string
  subjectLabel: string
  status: EnquiryStatus
}

export const ENQUIRY_COLUMNS = {
  received: {
    head: 'Received',
    card: 'last',
    className: 'whitespace-nowrap text-muted',
    cell: (row) => formatTime(row.receivedAt),
  },
  name: {
    head: 'Name',
    card: 'title',
    cell: (row) => (
      <a href={enquiryPath(row.id)} className={linkStyle}>
        {row.name}
      </a>
    ),
  },
  subject: { head: 'Subject', className: 'text-muted', cell: (row) => row.subjectLabel },
  status: { head: 'Status', cell: (row) => <StatusLabel status={row.status} /> },
} satisfies Record<string, DeskColumn<EnquiryRow>>
