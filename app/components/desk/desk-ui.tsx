import type { ReactNode } from 'react'
import { type DeskActionName, type EnquiryStatus, enquiryPath, FLASHES, isFlash } from '~/desk'
import { PageHero } from '../sections/PageHero'

/** The same on the server and in the browser: `2026-11-23 12:00 UTC`. */
export function formatTime(iso: string | null): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

export const STATUS_LABELS: Record<EnquiryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  held: 'Held',
  handled: 'Handled',
}

const STATUS_STYLES: Record<EnquiryStatus, string> = {
  pending: 'border-amber-300/50 text-amber-300',
  delivered: 'border-success/50 text-success',
  failed: 'border-danger/50 text-danger',
  held: 'border-violet-300/50 text-violet-300',
  handled: 'border-line-strong text-muted',
}

export function StatusLabel({ status }: { status: EnquiryStatus }) {
  return (
    <span className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-medium ${STATUS_STYLES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  )
}

const TONES = {
  success: 'border-success/40 bg-success/10 text-success',
  info: 'border-line-strong bg-ink-950/60 text-fg',
  danger: 'border-danger/40 bg-danger/10 text-danger',
} as const

/** Unknown codes show nothing. `detail`: words from the stored data (who changed it), never from the address. */
export function ActionFlash({ code, detail }: { code: unknown; detail?: string | null }) {
  return (
    <div role="status" aria-live="polite">
      {isFlash(code) ? (
        <p className={`mt-6 rounded-xl border px-4 py-3 ${TONES[FLASHES[code].tone]}`}>
          {FLASHES[code].text}
          {detail ? (
            <>
              {' '}
              <span data-testid="stale-move">{detail}</span>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}

export const buttonStyle =
  'inline-flex min-h-11 items-center justify-center rounded-xl bg-brand-400 px-5 py-2.5 font-semibold text-on-brand transition-colors hover:bg-brand-300'
export const quietButtonStyle =
  'inline-flex min-h-11 items-center justify-center rounded-xl border border-line-strong px-5 py-2.5 font-semibold text-fg transition-colors hover:border-brand-400'
export const dangerButtonStyle =
  'inline-flex min-h-11 items-center justify-center rounded-xl border border-danger/60 bg-danger/10 px-5 py-2.5 font-semibold text-danger transition-colors hover:bg-danger/20'
export const linkStyle = 'font-medium text-brand-300 underline underline-offset-4 hover:text-brand-400'
export const controlStyle =
  'w-full rounded-xl border border-line-strong bg-ink-950/60 px-4 py-2.5 text-fg placeholder:text-subtle transition-colors hover:border-brand-400/60 focus:border-brand-400'

/** The way back to the list, above a desk page's title. */
export function BackToDesk() {
  return (
    <p>
      <a href="/admin" className={linkStyle}>
        All enquiries
      </a>
    </p>
  )
}

/** Works without JavaScript: the server answers 303. */
export function ActionForm({
  action,
  id,
  children,
  extra,
}: {
  action: DeskActionName
  id: string
  children: ReactNode
  extra?: Record<string, string>
}) {
  return (
    <form method="post" action="/admin/actions">
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  )
}

/** Newer / "Page n of m" / Older; `href` gives a page's address. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center gap-4">
      {page > 1 ? (
        <a href={href(page - 1)} className={linkStyle} rel="prev">
          Newer
        </a>
      ) : null}
      <span className="text-muted">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <a href={href(page + 1)} className={linkStyle} rel="next">
          Older
        </a>
      ) : null}
    </nav>
  )
}

/** One column of a desk table; on a phone each row is a card (desk.css), a `hide` column left out. */
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

/** What every list of enquiries shows of one: each column once, for the desk and a person's requests. */
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

/** Every erasure's confirmation page: what goes, one button that posts what the page showed, the way back. */
export function ConfirmErase({
  back,
  backLabel,
  eyebrow,
  title,
  lead,
  erase,
  children,
}: {
  back: string
  backLabel: string
  eyebrow: string
  title: string
  lead: ReactNode
  erase: { action: DeskActionName; id: string; fields: Record<string, string> } | null
  /** What goes, listed between the words and the button. */
  children?: ReactNode
}) {
  return (
    <>
      <PageHero
        breadcrumb={
          <p>
            <a href={back} className={linkStyle}>
              {backLabel}
            </a>
          </p>
        }
        eyebrow={eyebrow}
        title={title}
        lead={lead}
      />
      {children}
      <div className="container-page mt-8 flex flex-wrap items-center gap-6">
        {erase ? (
          <ActionForm action={erase.action} id={erase.id} extra={erase.fields}>
            <button type="submit" className={dangerButtonStyle}>
              Erase permanently
            </button>
          </ActionForm>
        ) : null}
        <a href={back} className={linkStyle}>
          Cancel
        </a>
      </div>
    </>
  )
}
