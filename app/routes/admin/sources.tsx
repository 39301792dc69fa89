import { createFileRoute } from '@tanstack/react-router'
import { BackToDesk, DeskTable } from '~/components/desk/desk-ui'
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
    <DeskTable
      wide={false}
      className=""
      caption={caption}
      captionVisible
      rows={rows}
      rowKey="label"
      columns={[
        { head, className: 'break-all text-muted', cell: (row) => row.label },
        { head: 'Enquiries', className: 'text-muted', cell: (row) => row.count.toLocaleString('en') },
      ]}
    />
  )
}

function SourcesPage() {
  const { reports, none } = Route.useLoaderData()
  return (
    <>
      <PageHero
        breadcrumb={<BackToDesk />}
        eyebrow="Desk"
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
