import { createFileRoute } from '@tanstack/react-router'
import { PageHero } from '~/components/sections/PageHero'
import { buttonStyles } from '~/components/sections/styles'
import { loadLeavePage } from '~/notices'
import { site } from '~/site'

interface LinkSearch {
  id?: string
  sig?: string
  result?: string
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, 100) : undefined

/** The way out: its GET only shows, the button's POST leaves. Not indexed. */
export const Route = createFileRoute('/early-access/leave')({
  validateSearch: (search: Record<string, unknown>): LinkSearch => ({
    id: text(search.id),
    sig: text(search.sig),
    result: text(search.result),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) =>
    deps.result ? { state: deps.result } : loadLeavePage({ data: { id: deps.id, sig: deps.sig } }),
  head: () => ({
    meta: [{ title: `Leave early access updates | ${site.name}` }, { name: 'robots', content: 'noindex, nofollow' }],
  }),
  component: LeavePage,
})

const SHOWN: Record<string, { title: string; lead: string }> = {
  left: { title: 'You have left the list', lead: 'We will send you nothing more about launches.' },
  already: { title: 'Already left', lead: 'This address has already left the list. Nothing was changed.' },
  gone: { title: 'Not on the list', lead: 'This address is not on our list: there is nothing to leave.' },
  invalid: {
    title: 'This link does not work',
    lead: 'Nothing was changed. The link may be incomplete: copy the whole link from the e-mail, or write to us.',
  },
  error: {
    title: 'Something went wrong',
    lead: 'Nothing was changed. Please try again in a few minutes, or write to us.',
  },
}

function LeavePage() {
  const data = Route.useLoaderData()
  const search = Route.useSearch()
  if (data.state === 'leave')
    return (
      <PageHero
        eyebrow="Early access updates"
        title="Leave the list?"
        lead={<p>Press Leave and we will send nothing more about launches to this address.</p>}
      >
        <form method="post" action="/api/early-access/leave">
          <input type="hidden" name="id" value={search.id ?? ''} />
          <input type="hidden" name="sig" value={search.sig ?? ''} />
          <button type="submit" className={buttonStyles.primary}>
            Leave
          </button>
        </form>
      </PageHero>
    )
  const shown = SHOWN[data.state] ?? SHOWN.invalid
  return (
    <PageHero
      eyebrow="Early access updates"
      title={shown?.title}
      lead={
        <p>
          {shown?.lead}{' '}
          {data.state === 'invalid' || data.state === 'error' ? (
            <a href={`mailto:${site.email}`} className="font-medium text-brand-300 underline underline-offset-4">
              {site.email}
            </a>
          ) : null}
        </p>
      }
    />
  )
}
