import { createFileRoute } from '@tanstack/react-router'
import { ConfirmErase, formatTime } from '~/components/desk/desk-ui'
import { OutsideReach } from '~/components/desk/OutsideReach'
import { loadPersonErasure } from '~/desk'
import { deskHead } from '~/desk/head'

/** An enquiry received after this page was shown is kept. */
export const Route = createFileRoute('/admin/person/erase')({
  validateSearch: (search: Record<string, unknown>): { email?: string } => ({
    email: search.email === undefined ? undefined : String(search.email),
  }),
  loaderDeps: ({ search }) => ({ email: search.email }),
  loader: ({ deps }) => loadPersonErasure({ data: deps }),
  head: () => deskHead('Erase a person’s data'),
  component: ErasePersonPage,
})

function ErasePersonPage() {
  const { email, enquiries } = Route.useLoaderData()
  const count = enquiries.length
  return (
    <ConfirmErase
      back={email ? `/admin/person?email=${encodeURIComponent(email)}` : '/admin/person'}
      backLabel="Back to the request"
      eyebrow="Erase a person’s data"
      title={count === 0 || !email ? 'Nothing to erase' : `Erase everything held for ${email}?`}
      lead={
        count > 0 ? (
          <p>
            This deletes {count === 1 ? 'their enquiry' : `their ${count} enquiries`} and the delivery history from the
            database. It cannot be undone. The audit trail keeps a line for each, with its id only.
          </p>
        ) : (
          <p>No enquiry from this address is stored.</p>
        )
      }
      erase={
        count > 0 && email
          ? {
              action: 'erase-person',
              id: '',
              fields: { email, ids: enquiries.map((row) => row.id).join(','), confirm: 'person' },
            }
          : null
      }
    >
      {count > 0 && email ? (
        <div className="container-page mt-6">
          <ul className="list-disc space-y-1 pl-6 text-muted" data-testid="person-erase-list">
            {enquiries.map((row) => (
              <li key={row.id}>
                {row.id}, received {formatTime(row.receivedAt)}, {row.subjectLabel}
              </li>
            ))}
          </ul>
          <OutsideReach />
        </div>
      ) : null}
    </ConfirmErase>
  )
}
