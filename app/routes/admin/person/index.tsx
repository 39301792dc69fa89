import { createFileRoute } from '@tanstack/react-router'
import {
  ActionFlash,
  Address,
  buttonStyle,
  controlStyle,
  DeskTable,
  dangerButtonStyle,
  ENQUIRY_COLUMNS,
  formatTime,
  quietButtonStyle,
} from '~/components/desk/desk-ui'
import { OutsideReach } from '~/components/desk/OutsideReach'
import { PageHero } from '~/components/sections/PageHero'
import { loadPerson } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

/** Exact, ignoring case. */
export const Route = createFileRoute('/admin/person/')({
  validateSearch: (search: Record<string, unknown>) => searchText(search, 'email', 'flash'),
  loaderDeps: ({ search }) => ({ email: search.email }),
  loader: ({ deps }) => loadPerson({ data: deps }),
  head: () => deskHead('Requests by person'),
  component: PersonPage,
})

function PersonPage() {
  const { asked, email, enquiries, earlyAccess } = Route.useLoaderData()
  const any = enquiries.length > 0 || earlyAccess !== null
  const { flash } = Route.useSearch()
  const query = email ? `?email=${encodeURIComponent(email)}` : ''
  return (
    <>
      <PageHero
        eyebrow="Desk"
        title="Requests by person"
        lead={
          <p>
            When someone asks what we hold about them, or asks us to erase it: find their enquiries by e-mail address,
            then download it all or erase it all.
          </p>
        }
      />
      <div className="container-page">
        <ActionFlash code={flash} />
      </div>
      <section aria-labelledby="person-search-title" className="container-page mt-8">
        <h2 id="person-search-title" className="sr-only">
          Find a person
        </h2>
        <form method="get" action="/admin/person" className="flex flex-wrap items-end gap-4">
          <div className="flex min-w-64 flex-1 flex-col gap-1.5">
            <label htmlFor="person-email" className="text-sm font-medium text-fg">
              E-mail address (exact)
            </label>
            <input
              id="person-email"
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="off"
              defaultValue={asked ?? ''}
              className={controlStyle}
            />
          </div>
          <button type="submit" className={buttonStyle}>
            Find
          </button>
        </form>
        {asked !== null && !email ? (
          <p className="mt-4 text-danger" role="alert">
            That is not an e-mail address. Enter it as the person wrote it, such as name@example.com.
          </p>
        ) : null}
      </section>

      {email ? (
        <section aria-labelledby="person-title" className="container-page mt-8">
          <h2 id="person-title" className="text-h3 font-semibold text-fg">
            {!any
              ? 'Nothing held for '
              : `${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}${earlyAccess ? ' and early access' : ''} from `}
            <Address address={email} />
          </h2>
          {earlyAccess ? (
            <p className="mt-3 text-muted" data-testid="person-early-access">
              Early access: {earlyAccess.state}, signed up {formatTime(earlyAccess.signedUpAt)}
              {earlyAccess.confirmedAt ? `, confirmed ${formatTime(earlyAccess.confirmedAt)}` : ''}
              {earlyAccess.leftAt ? `, left ${formatTime(earlyAccess.leftAt)}` : ''} (consent line{' '}
              {earlyAccess.consentVersion}).
            </p>
          ) : null}
          {any ? (
            <>
              <DeskTable
                caption="Their enquiries, newest first"
                rows={enquiries}
                rowKey="id"
                marker="data-enquiry"
                columns={[
                  ENQUIRY_COLUMNS.received,
                  ENQUIRY_COLUMNS.name,
                  ENQUIRY_COLUMNS.subject,
                  ENQUIRY_COLUMNS.status,
                  {
                    head: 'Delivered',
                    className: 'text-muted',
                    cell: (row) =>
                      row.deliveredAt ? `${formatTime(row.deliveredAt)} to ${row.deliveredBy ?? '—'}` : 'no',
                  },
                ]}
              />
              <div className="mt-6 flex flex-wrap items-center gap-4">
                <a href={`/admin/person/export.json${query}`} className={quietButtonStyle} download>
                  Download all as JSON
                </a>
                <a href={`/admin/person/erase${query}`} className={dangerButtonStyle}>
                  Erase all…
                </a>
              </div>
            </>
          ) : null}
          <OutsideReach />
        </section>
      ) : null}

      <section aria-labelledby="person-how-title" className="container-page mt-10">
        <h2 id="person-how-title" className="text-h3 font-semibold text-fg">
          How to answer
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-6 text-muted">
          <li>Check that the request comes from that address (reply to it and ask them to confirm).</li>
          <li>
            For a copy, send them the downloaded file. For an erasure, erase here, then delete their mail by hand.
          </li>
          <li>The privacy page promises an answer within 30 days. Both steps are in the activity page.</li>
        </ul>
      </section>
    </>
  )
}
