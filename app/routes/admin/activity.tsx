import { createFileRoute } from '@tanstack/react-router'
import { Address, DeskTable, formatTime, linkStyle, Pager } from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
import { facts } from '~/content/facts'
import { type ActivityLine, auditLabel, enquiryPath, loadActivity } from '~/desk'
import { deskHead } from '~/desk/head'

export const Route = createFileRoute('/admin/activity')({
  validateSearch: (search: Record<string, unknown>): { page?: number } => ({
    page: search.page === undefined ? undefined : Number(search.page),
  }),
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ deps }) => loadActivity({ data: deps }),
  head: () => deskHead('Activity'),
  component: ActivityPage,
})

function ActivityPage() {
  const { page, lines, total, pageSize } = Route.useLoaderData()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1
  const last = Math.min(total, page * pageSize)
  return (
    <>
      <PageHero
        eyebrow="Desk"
        title="Activity"
        lead={
          <p>
            Who opened, exported, released or erased which enquiry, newest first. Lines cannot be changed or deleted
            here; each is kept for {facts.auditRetentionDays} days.
          </p>
        }
      />
      <section aria-labelledby="activity-title" className="container-page mt-8">
        <h2 id="activity-title" className="sr-only">
          Actions
        </h2>
        <p className="text-muted" data-testid="activity-count">
          {total === 0 ? 'No actions recorded yet.' : `${first}–${last} of ${total}`}
        </p>
        <DeskTable
          caption="Operator actions, newest first"
          rows={lines}
          rowKey="seq"
          marker="data-audit"
          columns={[
            {
              head: 'Time',
              card: 'last',
              className: 'whitespace-nowrap text-muted',
              cell: (line) => formatTime(line.at),
            },
            { head: 'Operator', className: 'text-muted', cell: (line) => <Address address={line.operator} /> },
            { head: 'Action', card: 'title', cell: (line) => auditLabel(line.action) },
            { head: 'Enquiry', className: 'text-muted', cell: (line) => <AuditEnquiry line={line} /> },
            { head: 'Detail', className: 'text-muted', cell: (line) => line.detail || '—' },
          ]}
        />
        <Pager page={page} pages={pages} href={(n) => `/admin/activity?page=${n}`} />
      </section>
    </>
  )
}

function AuditEnquiry({ line }: { line: ActivityLine }) {
  if (line.enquiryId === null) return '—'
  if (line.enquiryStored)
    return (
      <a href={enquiryPath(line.enquiryId)} className={linkStyle}>
        {line.enquiryId}
      </a>
    )
  return (
    <>
      {line.enquiryId} <span className="text-subtle">(erased)</span>
    </>
  )
}
