import { createFileRoute } from '@tanstack/react-router'
import { ActionForm, dangerButtonStyle, formatTime, linkStyle } from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
import { loadHeldErasure } from '~/desk'
import { deskHead } from '~/desk/head'

interface HeldSearch {
  day?: string
  reason?: string
}

/** A plain page with one form post; the erasure stops at the newest enquiry this page counted. */
export const Route = createFileRoute('/admin/erase-held')({
  validateSearch: (search: Record<string, unknown>): HeldSearch => ({
    day: search.day === undefined ? undefined : String(search.day),
    reason: search.reason === undefined ? undefined : String(search.reason),
  }),
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
  const back = '/admin?status=held'
  const which = describe(selection)
  return (
    <>
      <PageHero
        breadcrumb={
          <p>
            <a href={back} className={linkStyle}>
              Back to the held enquiries
            </a>
          </p>
        }
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
              This deletes {count === 1 ? 'it' : `all ${count.toLocaleString('en')}`} and their delivery history from
              the database, up to the newest, received {formatTime(until)}; one held after that is kept. It cannot be
              undone. Held enquiries were never delivered, so no copy is in the company mailbox.
            </p>
          )
        }
      />
      <div className="container-page mt-10 flex flex-wrap items-center gap-6">
        {count > 0 && until ? (
          <ActionForm
            action="erase-held"
            id=""
            extra={{
              ...(selection.day ? { day: selection.day } : {}),
              ...(selection.reason ? { reason: selection.reason } : {}),
              until,
              confirm: 'held',
            }}
          >
            <button type="submit" className={dangerButtonStyle}>
              Erase permanently
            </button>
          </ActionForm>
        ) : null}
        <a href={back} className={linkStyle}>
          Cancel
        </a>
      </div>
    </>
  )
}
