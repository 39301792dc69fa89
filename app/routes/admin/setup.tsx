import { createFileRoute } from '@tanstack/react-router'
import { BackToDesk } from '~/components/desk/desk-ui'
import { SetupPanel } from '~/components/desk/SetupPanel'
import { PageHero } from '~/components/sections/PageHero'
import { loadSetup } from '~/desk'
import { deskHead } from '~/desk/head'

/** The delivery set-up, off the desk's first screen so that screen shows enquiries. */
export const Route = createFileRoute('/admin/setup')({
  loader: () => loadSetup(),
  head: () => deskHead('Set-up'),
  component: SetupPage,
})

function SetupPage() {
  const setup = Route.useLoaderData()
  return (
    <>
      <PageHero
        breadcrumb={<BackToDesk />}
        title="Set-up"
        lead={
          <p>
            What this deployment has in effect, from its variables and bindings. Never a secret’s value:
            <code> npm run enquiries -- setup</code> prints the same in a terminal.
          </p>
        }
      />
      <SetupPanel setup={setup} />
    </>
  )
}
