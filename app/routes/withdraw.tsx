import { createFileRoute } from '@tanstack/react-router'
import { PageHero } from '~/components/sections/PageHero'
import { buttonStyles } from '~/components/sections/styles'
import { privateHead } from '~/lib/seo'
import { linkSearch, loadWithdrawal } from '~/notices'
import { site } from '~/site'

/** A forged or expired link does nothing and says so; the button is a plain form (no script needed). Not indexed. */
export const Route = createFileRoute('/withdraw')({
  loaderDeps: ({ search }) => search,
  loader: async ({ deps }) => {
    const search = linkSearch(deps)
    return {
      search,
      ...(search.result ? { state: 'result' as const, result: search.result } : await loadWithdrawal({ data: search })),
    }
  },
  head: () => privateHead(`Withdraw your enquiry | ${site.name}`),
  component: WithdrawPage,
})

const RESULTS: Record<string, { title: string; lead: string }> = {
  erased: {
    title: 'Your enquiry is withdrawn',
    lead: 'We have erased it, with its delivery record, from our website’s database. We will not contact you about it.',
  },
  gone: { title: 'Nothing to withdraw', lead: 'This enquiry is no longer in our records: it was already erased.' },
  invalid: {
    title: 'This link does not work',
    lead: 'Nothing was changed. The link may be incomplete: copy the whole link from the e-mail, or write to us.',
  },
  expired: {
    title: 'This link has expired',
    lead: 'Nothing was changed. To withdraw the enquiry now, write to us with the reference from the e-mail.',
  },
  error: {
    title: 'Something went wrong',
    lead: 'Nothing was changed. Please try again in a few minutes, or write to us.',
  },
}

function WithdrawPage() {
  const { search, ...data } = Route.useLoaderData()
  if (data.state === 'confirm')
    return (
      <PageHero
        eyebrow="Your enquiry"
        title="Withdraw your enquiry?"
        lead={
          <p>
            This erases the enquiry with reference {data.reference}, sent on{' '}
            {new Date(data.receivedAt).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'UTC' })}, from our
            website’s database. It cannot be undone.
          </p>
        }
      >
        <form method="post" action="/api/withdraw">
          <input type="hidden" name="id" value={search.id ?? ''} />
          <input type="hidden" name="until" value={search.until ?? ''} />
          <input type="hidden" name="sig" value={search.sig ?? ''} />
          <button type="submit" className={buttonStyles.primary}>
            Withdraw and erase
          </button>
        </form>
        <a href="/" className={buttonStyles.secondary}>
          Keep it
        </a>
      </PageHero>
    )
  const key = data.state === 'result' ? data.result : data.state
  const shown = (Object.hasOwn(RESULTS, key) ? RESULTS[key] : undefined) ?? RESULTS.invalid
  return (
    <PageHero
      eyebrow="Your enquiry"
      title={shown?.title}
      lead={
        <p>
          {shown?.lead}{' '}
          {key === 'erased' ? (
            ''
          ) : (
            <a href={`mailto:${site.email}`} className="font-medium text-brand-300 underline underline-offset-4">
              {site.email}
            </a>
          )}
        </p>
      }
    />
  )
}
