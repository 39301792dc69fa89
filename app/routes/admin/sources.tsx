import { createFileRoute } from '@tanstack/react-router'
import { BackToInbox, ColumnHeads } from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
import { loadSources } from '~/desk'
import { deskHead } from '~/desk/head'

/** Counts over the last 30 and 90 days, in plain tables. */
export const Route = createFileRoute('/admin/sources')({
  loader: () => loadSources(),
  head: () => deskHead('Where enquiries came from'),
  component: SourcesPage,
})

function CountTable({
  caption,
  head,
  rows,
}: {
  caption: string
  head: string
  rows: { label: string; count: number }[]
}) {
  return (
    <table className="w-full border-collapse text-left">
      <caption className="text-left font-medium text-fg">{caption}</caption>
      <ColumnHeads names={[head, 'Enquiries']} />
      <tbody>
        {rows.map(({ label, count }) => (
          <tr key={label} className="border-b border-line">
            <td className="py-2 pr-4 break-all text-muted">{label}</td>
            <td className="py-2 pr-4 text-muted">{count.toLocaleString('en')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function SourcesPage() {
  const { reports, none } = Route.useLoaderData()
  return (
    <>
      <PageHero
        breadcrumb={<BackToInbox />}
        eyebrow="Inbox"
        title="Where enquiries came from"
        lead={
          <p>
            The source is the campaign's UTM source when the visit had one, else the site that linked to it. “
            {none.source}” counts visits that began here, from a bookmark or a typed address, or without a record.
          </p>
        }
      />
      {reports.map((report) => (
        <section
          key={report.days}
          aria-labelledby={`sources-${report.days}`}
          className="container-page mt-10"
          data-testid={`sources-${report.days}`}
        >
          <h2 id={`sources-${report.days}`} className="text-h3 font-semibold text-fg">
            Last {report.days} days: {report.total.toLocaleString('en')} enquir{report.total === 1 ? 'y' : 'ies'}
          </h2>
          {report.total > 0 ? (
            <div className="mt-4 grid gap-8 sm:grid-cols-2">
              <CountTable caption="By source" head="Source" rows={report.bySource} />
              <CountTable caption="By first page" head="First page" rows={report.byFirstPage} />
            </div>
          ) : null}
        </section>
      ))}
    </>
  )
}
