import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DeskShell } from '~/components/desk/DeskShell'
import { loadOperator } from '~/desk'
import deskCss from '~/styles/desk.css?url'

/** Every desk page in the desk's own shell; the root draws no brochure around it (app/routes/__root.tsx). */
export const Route = createFileRoute('/admin')({
  loader: () => loadOperator(),
  head: () => ({ links: [{ rel: 'stylesheet', href: deskCss }] }),
  component: DeskLayout,
})

function DeskLayout() {
  const { email } = Route.useLoaderData()
  return (
    <DeskShell operator={email}>
      <Outlet />
    </DeskShell>
  )
}
