import { createFileRoute } from '@tanstack/react-router'
import { ColumnHeads, formatTime, linkStyle, Pager } from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
import { facts } from '~/content/facts'
import { auditLabel, enquiryPath, loadActivity } from '~/desk'
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
        {lines.length > 0 ? (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[40rem] border-collapse text-left">
              <caption className="sr-only">Operator actions, newest first</caption>
              <ColumnHeads names={['Time', 'Operator', 'Action', 'Enquiry', 'Detail']} />
              <tbody>
                {lines.map((line) => (
                  <tr key={line.seq} className="border-b border-line align-top" data-audit={line.seq}>
                    <td className="py-2 pr-4 whitespace-nowrap text-muted">{formatTime(line.at)}</td>
                    <td className="py-2 pr-4 whitespace-nowrap text-muted">{line.operator}</td>
                    <td className="py-2 pr-4">{auditLabel(line.action)}</td>
                    <td className="py-2 pr-4 text-muted">
                      {line.enquiryId === null ? (
                        '—'
                      ) : line.enquiryStored ? (
                        <a href={enquiryPath(line.enquiryId)} className={linkStyle}>
                          {line.enquiryId}
                        </a>
                      ) : (
                        <>
                          {line.enquiryId} <span className="text-subtle">(erased)</span>
                        </>
                      )}
                    </td>
                    <td className="py-2 pr-4 text-muted">{line.detail || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <Pager page={page} pages={pages} href={(n) => `/admin/activity?page=${n}`} />
      </section>
    </>
  )
}
