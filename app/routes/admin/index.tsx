import { createFileRoute } from '@tanstack/react-router'
import {
  ActionFlash,
  Address,
  buttonStyle,
  controlStyle,
  DeskTable,
  ENQUIRY_COLUMNS,
  linkStyle,
  Pager,
  quietButtonStyle,
  STATUS_LABELS,
} from '~/components/desk/desk-ui'
import { TriageCell, TriageCounts, TriageFilterFields } from '~/components/desk/triage-bar'
import { PageHero } from '~/components/sections/PageHero'
import type { HeldSummary } from '~/desk'
import { ENQUIRY_STATUSES, heldErasePath, loadEnquiryList, triageParams } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

interface EnquiryListSearch {
  status?: string
  q?: string
  page?: number
  flash?: string
  /** Strings: the loader checks them. */
  state?: string
  owner?: string
  overdue?: string
}

/** The desk: a plain GET form and plain links, so it works the same without JavaScript. */
export const Route = createFileRoute('/admin/')({
  validateSearch: (search: Record<string, unknown>): EnquiryListSearch => ({
    ...searchText(search, 'status', 'q', 'flash', 'state', 'owner', 'overdue'),
    page: search.page === undefined ? undefined : Number(search.page),
  }),
  loaderDeps: ({ search }) => ({
    status: search.status,
    q: search.q,
    page: search.page,
    state: search.state,
    owner: search.owner,
    overdue: search.overdue,
  }),
  loader: ({ deps }) => loadEnquiryList({ data: deps }),
  head: () => deskHead('Enquiries'),
  component: EnquiryListPage,
})

function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}

function EnquiryListPage() {
  const { query, records, total, pageSize, setupGaps, held, triage } = Route.useLoaderData()
  const { flash } = Route.useSearch()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const filter = { status: query.status, q: query.q, ...triageParams(query) }
  const first = total === 0 ? 0 : (query.page - 1) * pageSize + 1
  const last = Math.min(total, query.page * pageSize)

  return (
    <>
      <PageHero
        title="Enquiries"
        lead={
          <p>
            Every enquiry the contact form stored, newest first.{' '}
            <a href="/admin/sources" className={linkStyle}>
              Where enquiries came from (last 30 and 90 days)
            </a>
          </p>
        }
      />
      <div className="container-page">
        <ActionFlash code={flash} />
      </div>
      {setupGaps.length ? (
        <p className="container-page mt-3 text-muted" data-testid="setup-gaps">
          <span className="font-medium text-fg">Set-up:</span> {setupGaps.join('; ')}.{' '}
          <a href="/admin/setup" className={linkStyle}>
            See the set-up
          </a>
        </p>
      ) : null}
      <TriageCounts triage={triage} query={query} />

      <section aria-labelledby="list-title" className="container-page mt-6">
        <h2 id="list-title" className="text-h3 font-semibold text-fg">
          {query.status ? `${STATUS_LABELS[query.status]} enquiries` : 'All enquiries'}
          {query.q ? ` matching “${query.q}”` : ''}
        </h2>
        <form
          method="get"
          action="/admin"
          className="mt-3 flex flex-wrap items-end gap-4"
          aria-label="Filter enquiries"
        >
          <div className="flex flex-col gap-1.5">
            <label htmlFor="filter-status" className="text-sm font-medium text-fg">
              Status
            </label>
            <select id="filter-status" name="status" defaultValue={query.status ?? ''} className={controlStyle}>
              <option value="">All</option>
              {ENQUIRY_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </div>
          <TriageFilterFields query={query} />
          <div className="flex min-w-64 flex-1 flex-col gap-1.5">
            <label htmlFor="filter-q" className="text-sm font-medium text-fg">
              Name, e-mail or company
            </label>
            <input
              id="filter-q"
              name="q"
              type="search"
              maxLength={200}
              defaultValue={query.q ?? ''}
              className={controlStyle}
            />
          </div>
          <button type="submit" className={buttonStyle}>
            Show
          </button>
          <a href={`/admin/export.csv${queryString(filter)}`} className={quietButtonStyle} download>
            Export CSV
          </a>
        </form>

        {held && held.total > 0 ? <HeldErasure held={held} /> : null}
        <p className="mt-4 text-muted" data-testid="list-count">
          {total === 0 ? 'No enquiries.' : `${first}–${last} of ${total}`}
        </p>
        <DeskTable
          className="mt-2"
          caption="Enquiries, newest first"
          rows={records}
          rowKey="id"
          marker="data-enquiry"
          columns={[
            ENQUIRY_COLUMNS.received,
            ENQUIRY_COLUMNS.name,
            {
              head: 'E-mail',
              card: 'hide',
              className: 'text-muted',
              cell: (record) => <Address address={record.email} />,
            },
            { head: 'Company', card: 'hide', className: 'text-muted', cell: (record) => record.company || '—' },
            ENQUIRY_COLUMNS.subject,
            ENQUIRY_COLUMNS.status,
            { head: 'Triage', cell: (record) => <TriageCell triage={triage.rows[record.id]} me={triage.me} /> },
          ]}
        />
        <Pager page={query.page} pages={pages} href={(n) => `/admin${queryString({ ...filter, page: n })}`} />
      </section>
    </>
  )
}

/** Each through a confirmation page. */
function HeldErasure({ held }: { held: HeldSummary }) {
  return (
    <section aria-labelledby="held-erase-title" className="glass mt-6 p-6">
      <h3 id="held-erase-title" className="text-lg font-semibold text-fg">
        Erase held enquiries
      </h3>
      <p className="mt-2 text-muted">
        Read a few first and release the real ones. Each link shows how many it erases and asks again.
      </p>
      <p className="mt-4">
        <a href={heldErasePath({})} className={linkStyle}>
          Erase all {held.total.toLocaleString('en')} held…
        </a>
      </p>
      <div className="mt-4 grid gap-8 sm:grid-cols-2">
        <HeldTable
          title="By day received (UTC)"
          head="Day"
          rows={held.days.map(({ day, count }) => ({
            key: day,
            count,
            selection: { day },
            words: `the held of ${day}`,
          }))}
        />
        <HeldTable
          title="By reason"
          head="Reason"
          rows={held.reasons.map(({ reason, count }) => ({
            key: reason,
            count,
            selection: reason ? { reason } : null,
            words: `the held as ${reason}`,
          }))}
        />
      </div>
    </section>
  )
}

interface HeldRow {
  key: string
  count: number
  /** Null: not one that can be chosen (no reason stored). */
  selection: { day?: string; reason?: string } | null
  words: string
}

function HeldTable({ title, head, rows }: { title: string; head: string; rows: HeldRow[] }) {
  return (
    <DeskTable
      wide={false}
      className=""
      caption={title}
      captionVisible
      rows={rows}
      rowKey="key"
      columns={[
        { head, className: 'text-muted', cell: (row) => row.key || '—' },
        { head: 'Held', className: 'text-muted', cell: (row) => row.count.toLocaleString('en') },
        {
          head: 'Action',
          cell: (row) =>
            row.selection ? (
              <a href={heldErasePath(row.selection)} className={linkStyle}>
                Erase…<span className="sr-only"> {row.words}</span>
              </a>
            ) : null,
        },
      ]}
    />
  )
}
