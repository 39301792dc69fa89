import { createFileRoute, notFound } from '@tanstack/react-router'
import { EarlyAccessLinkPage } from '~/components/early-access/EarlyAccessLinkPage'
import { privateHead } from '~/lib/seo'
import { linkSearch, loadConfirmPage, loadLeavePage } from '~/notices'
import { site } from '~/site'

/** Not indexed, out of the navigation and the sitemap; any other step is a 404. The loader leaves the words to the component's chunk. */
export const Route = createFileRoute('/early-access/$step')({
  loaderDeps: ({ search }) => search,
  loader: async ({ params, deps }) => {
    const step = params.step
    if (step !== 'confirm' && step !== 'leave') throw notFound()
    const search = linkSearch(deps)
    const fields = { id: search.id, until: search.until, sig: search.sig }
    const state =
      search.result ?? (await (step === 'confirm' ? loadConfirmPage : loadLeavePage)({ data: fields })).state
    return { step, search, state }
  },
  head: ({ loaderData }) =>
    privateHead(`${loaderData?.step === 'leave' ? 'Leave' : 'Confirm'} early access updates | ${site.name}`),
  component: () => <EarlyAccessLinkPage {...Route.useLoaderData()} />,
})
