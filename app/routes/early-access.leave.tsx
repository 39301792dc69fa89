import { createFileRoute } from '@tanstack/react-router'
import { PageHero } from '~/components/sections/PageHero'
import { buttonStyles } from '~/components/sections/styles'
import { linkSearch, loadLeavePage } from '~/notices'
import { site } from '~/site'

/** The way out: its GET only shows, the button's POST leaves. Not indexed. */
export const Route = createFileRoute('/early-access/leave')({
  loaderDeps: ({ search }) => search,
  // The link's fields are read in the loader, whose code waits in its own chunk until the page is reached.
  loader: async ({ deps }) => {
    const search = linkSearch(deps)
    return {
      search,
      ...(search.result ? { state: search.result } : await loadLeavePage({ data: { id: search.id, sig: search.sig } })),
    }
  },
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
  const { search, ...data } = Route.useLoaderData()
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
