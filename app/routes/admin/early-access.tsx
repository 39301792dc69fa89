import { createFileRoute } from '@tanstack/react-router'
import {
  ActionFlash,
  ActionForm,
  Address,
  DeskTable,
  formatTime,
  linkStyle,
  quietButtonStyle,
} from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
import { loadEarlyAccess } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

/** Who asked for launch news: counts, the newest entries, the confirmed list as CSV for a mail tool. */
export const Route = createFileRoute('/admin/early-access')({
  validateSearch: (search: Record<string, unknown>) => searchText(search, 'flash'),
  loader: () => loadEarlyAccess(),
  head: () => deskHead('Early access'),
  component: EarlyAccessPage,
})

const STATE_WORDS = { pending: 'Pending', confirmed: 'Confirmed', left: 'Left' } as const

function EarlyAccessPage() {
  const { on, why, counts, newest, undelivered } = Route.useLoaderData()
  const { flash } = Route.useSearch()
  const tally = [
    { label: 'Pending (not yet confirmed)', count: counts.pending, id: 'pending' },
    { label: 'Confirmed', count: counts.confirmed, id: 'confirmed' },
    { label: 'Left', count: counts.left, id: 'left' },
    { label: 'Confirmation e-mails that could not be sent', count: counts.mailFailed, id: 'mail-failed' },
  ]
  return (
    <>
      <PageHero
        eyebrow="Desk"
        title="Early access"
        lead={
          <p>
            Visitors who asked for news of the launches on the products page. Only confirmed addresses may be written
            to: export them for the mail tool the announcement goes out from.
          </p>
        }
      />
      <div className="container-page">
        <ActionFlash code={flash} />
        {on ? null : (
          <p className="mt-4 text-muted" data-testid="early-access-off">
            The signup is off ({why}): the button opens the contact form.
          </p>
        )}
      </div>
      <section aria-labelledby="early-access-counts" className="container-page mt-8">
        <h2 id="early-access-counts" className="text-h3 font-semibold text-fg">
          The list now
        </h2>
        <dl className="mt-3 grid gap-x-8 gap-y-1 sm:grid-cols-[auto_1fr]" data-testid="early-access-counts">
          {tally.map((row) => (
            <div key={row.id} className="contents">
              <dt className="text-muted">{row.label}</dt>
              <dd className="font-medium text-fg" data-count={row.id}>
                {row.count.toLocaleString('en')}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-6">
          <a href="/admin/early-access.csv" className={quietButtonStyle} download>
            Export confirmed as CSV
          </a>
        </p>
        <p className="mt-2 text-sm text-muted">
          Columns: Email Address, Confirmed at, Consent version. The audit trail records each export.
        </p>
      </section>

      <section aria-labelledby="early-access-newest" className="container-page mt-10">
        <h2 id="early-access-newest" className="text-h3 font-semibold text-fg">
          {newest.length ? `Newest ${newest.length}` : 'Nobody has signed up yet'}
        </h2>
        <DeskTable
          caption="Newest signups first"
          rows={newest}
          rowKey="id"
          marker="data-entry"
          columns={[
            { head: 'Address', card: 'title', cell: (row) => <Address address={row.email} /> },
            { head: 'State', cell: (row) => STATE_WORDS[row.state] },
            {
              head: 'Signed up',
              className: 'whitespace-nowrap text-muted',
              cell: (row) => formatTime(row.signedUpAt),
            },
            {
              head: 'Confirmed',
              className: 'whitespace-nowrap text-muted',
              cell: (row) => (row.confirmedAt ? formatTime(row.confirmedAt) : '—'),
            },
            {
              head: 'Confirmation e-mail',
              className: 'text-muted',
              card: 'last',
              cell: (row) => (row.mailFailedAt ? `not sent (${formatTime(row.mailFailedAt)})` : 'sent'),
            },
          ]}
        />
        <p className="mt-3 text-sm text-muted">
          To show or erase one person’s entry, use{' '}
          <a href="/admin/person" className={linkStyle}>
            Requests by person
          </a>
          .
        </p>
      </section>

      {undelivered.length ? (
        <section aria-labelledby="early-access-webhooks" className="container-page mt-10" data-testid="webhooks">
          <h2 id="early-access-webhooks" className="text-h3 font-semibold text-fg">
            Webhooks not delivered
          </h2>
          <DeskTable
            caption="Subscriber events an endpoint has not taken, newest first"
            rows={undelivered}
            rowKey="id"
            columns={[
              { head: 'Event', card: 'title', cell: (event) => event.type },
              { head: 'Endpoint', cell: (event) => `${event.endpoint} (${event.host ?? 'no longer configured'})` },
              {
                head: 'State',
                className: 'text-muted',
                cell: (event) => `${event.status}, ${event.attempts} attempts, ${event.lastCause ?? '—'}`,
              },
              {
                head: 'Replay',
                card: 'last',
                cell: (event) =>
                  event.host ? (
                    <ActionForm action="replay-subscriber" id="" extra={{ event: event.id }}>
                      <button type="submit" className={quietButtonStyle}>
                        Replay
                      </button>
                    </ActionForm>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        </section>
      ) : null}
    </>
  )
}
