import { createFileRoute } from '@tanstack/react-router'
import { ConfirmErase, formatTime } from '~/components/desk/desk-ui'
import { loadHeldErasure } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

interface HeldSearch {
  day?: string
  reason?: string
}

/** A plain page with one form post; the erasure stops at the newest enquiry this page counted. */
export const Route = createFileRoute('/admin/erase-held')({
  validateSearch: (search: Record<string, unknown>): HeldSearch => searchText(search, 'day', 'reason'),
  loaderDeps: ({ search }) => ({ day: search.day, reason: search.reason }),
  loader: ({ deps }) => loadHeldErasure({ data: deps }),
  head: () => deskHead('Erase held enquiries'),
  component: EraseHeldPage,
})

function describe(selection: HeldSearch): string {
  const parts = [
    selection.day ? `received on ${selection.day} (UTC)` : '',
    selection.reason ? `held as ${selection.reason}` : '',
  ].filter(Boolean)
  return parts.length ? ` ${parts.join(' and ')}` : ''
}

function EraseHeldPage() {
  const { selection, count, until } = Route.useLoaderData()
  const which = describe(selection)
  return (
    <ConfirmErase
      back="/admin?status=held"
      backLabel="Back to the held enquiries"
      eyebrow="Erase held enquiries"
      title={
        count === 0
          ? `No held enquiries${which}`
          : `Erase ${count.toLocaleString('en')} held enquir${count === 1 ? 'y' : 'ies'}${which}?`
      }
      lead={
        count === 0 || !until ? (
          <p>There is nothing to erase.</p>
        ) : (
          <p>
            This deletes {count === 1 ? 'it' : `all ${count.toLocaleString('en')}`} and their delivery history from the
            database, up to the newest, received {formatTime(until)}; one held after that is kept. It cannot be undone.
            Held enquiries were never delivered, so no copy is in the company mailbox.
          </p>
        )
      }
      erase={
        count > 0 && until
          ? {
              action: 'erase-held',
              id: '',
              fields: {
                ...(selection.day ? { day: selection.day } : {}),
                ...(selection.reason ? { reason: selection.reason } : {}),
                until,
                confirm: 'held',
              },
            }
          : null
      }
    />
  )
}
