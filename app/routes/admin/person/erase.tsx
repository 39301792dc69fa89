import { createFileRoute } from '@tanstack/react-router'
import { ConfirmErase, formatTime } from '~/components/desk/desk-ui'
import { OutsideReach } from '~/components/desk/OutsideReach'
import { loadPersonErasure } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

/** An enquiry received after this page was shown is kept. */
export const Route = createFileRoute('/admin/person/erase')({
  validateSearch: (search: Record<string, unknown>) => searchText(search, 'email'),
  loaderDeps: ({ search }) => ({ email: search.email }),
  loader: ({ deps }) => loadPersonErasure({ data: deps }),
  head: () => deskHead('Erase a person’s data'),
  component: ErasePersonPage,
})

function ErasePersonPage() {
  const { email, enquiries, earlyAccess } = Route.useLoaderData()
  const count = enquiries.length + (earlyAccess ? 1 : 0)
  return (
    <ConfirmErase
      back={email ? `/admin/person?email=${encodeURIComponent(email)}` : '/admin/person'}
      backLabel="Back to the request"
      eyebrow="Erase a person’s data"
      title={count === 0 || !email ? 'Nothing to erase' : `Erase everything held for ${email}?`}
      lead={
        count > 0 ? (
          <p>
            This deletes{' '}
            {enquiries.length === 0
              ? ''
              : enquiries.length === 1
                ? 'their enquiry and its delivery history'
                : `their ${enquiries.length} enquiries and their delivery history`}
            {enquiries.length && earlyAccess ? ' and ' : ''}
            {earlyAccess ? 'their early access entry' : ''} from the database, and tells each webhook endpoint that had
            them. It cannot be undone. The audit trail keeps a line for each enquiry, with its id only.
          </p>
        ) : (
          <p>Nothing from this address is stored.</p>
        )
      }
      erase={
        count > 0 && email
          ? {
              action: 'erase-person',
              id: '',
              fields: {
                email,
                ids: enquiries.map((row) => row.id).join(','),
                entry: earlyAccess?.id ?? '',
                confirm: 'person',
              },
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
            {earlyAccess ? (
              <li>
                Early access entry, {earlyAccess.state}, signed up {formatTime(earlyAccess.signedUpAt)}
              </li>
            ) : null}
          </ul>
          <OutsideReach />
        </div>
      ) : null}
    </ConfirmErase>
  )
}
