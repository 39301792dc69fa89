import { createFileRoute } from '@tanstack/react-router'
import { PageHero } from '~/components/sections/PageHero'
import { buttonStyles } from '~/components/sections/styles'
import { loadConfirmPage } from '~/notices'
import { site } from '~/site'

interface LinkSearch {
  id?: string
  until?: string
  sig?: string
  result?: string
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, 100) : undefined

/** The confirmation e-mail's link: its GET only shows (mail scanners open links); the button's POST confirms. Not indexed. */
export const Route = createFileRoute('/early-access/confirm')({
  validateSearch: (search: Record<string, unknown>): LinkSearch => ({
    id: text(search.id),
    until: text(search.until),
    sig: text(search.sig),
    result: text(search.result),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) =>
    deps.result ? { state: deps.result } : loadConfirmPage({ data: { id: deps.id, until: deps.until, sig: deps.sig } }),
  head: () => ({
    meta: [{ title: `Confirm early access updates | ${site.name}` }, { name: 'robots', content: 'noindex, nofollow' }],
  }),
  component: ConfirmPage,
})

const SHOWN: Record<string, { title: string; lead: string }> = {
  confirmed: {
    title: 'You are on the list',
    lead: `Thank you. We will write to you about ${site.product.name}’s early access and our other launches, and about nothing else.`,
  },
  already: { title: 'Already confirmed', lead: 'This address is already on the list. Nothing was changed.' },
  left: {
    title: 'This address has left the list',
    lead: 'Nothing was changed. To hear from us again, sign up on the products page: we will send a new link.',
  },
  gone: {
    title: 'Nothing to confirm',
    lead: 'This signup is no longer in our records. To hear about launches, sign up again on the products page.',
  },
  invalid: {
    title: 'This link does not work',
    lead: 'Nothing was changed. The link may be incomplete: copy the whole link from the e-mail.',
  },
  expired: {
    title: 'This link has expired',
    lead: 'Nothing was changed. Sign up again on the products page and we will send a new link.',
  },
  error: { title: 'Something went wrong', lead: 'Nothing was changed. Please try again in a few minutes.' },
}

const linkStyle = 'font-medium text-brand-300 underline underline-offset-4'

function ConfirmPage() {
  const data = Route.useLoaderData()
  const search = Route.useSearch()
  if (data.state === 'confirm')
    return (
      <PageHero
        eyebrow="Early access updates"
        title="Confirm your address?"
        lead={
          <p>
            Press Confirm to receive news of {site.product.name}’s early access and of our other products in
            development. You can leave the list at any time, in one press.
          </p>
        }
      >
        <form method="post" action="/api/early-access/confirm">
          <input type="hidden" name="id" value={search.id ?? ''} />
          <input type="hidden" name="until" value={search.until ?? ''} />
          <input type="hidden" name="sig" value={search.sig ?? ''} />
          <button type="submit" className={buttonStyles.primary}>
            Confirm
          </button>
        </form>
      </PageHero>
    )
  const shown = SHOWN[data.state] ?? SHOWN.invalid
  // After confirming, the page carries the way out (the leave link's fields come back with the result).
  const leave = (data.state === 'confirmed' || data.state === 'already') && search.id && search.sig
  return (
    <PageHero
      eyebrow="Early access updates"
      title={shown?.title}
      lead={
        <>
          <p>{shown?.lead}</p>
          {leave ? (
            <p className="mt-4">
              Changed your mind?{' '}
              <a
                href={`/early-access/leave?${new URLSearchParams({ id: search.id ?? '', sig: search.sig ?? '' })}`}
                className={linkStyle}
              >
                Leave the list
              </a>
            </p>
          ) : data.state === 'confirmed' || data.state === 'already' ? null : (
            <p className="mt-4">
              <a href="/products" className={linkStyle}>
                Go to the products page
              </a>
            </p>
          )}
        </>
      }
    />
  )
}
