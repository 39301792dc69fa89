import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DeskShell } from '~/components/desk/DeskShell'
import { loadOperator } from '~/desk'
import deskCss from '~/styles/desk.css?url'

/**
 * Every operator page (`/admin…`) is drawn in the desk's own shell, with who is signed in; the
 * root draws no brochure header, footer or shapes around it (app/routes/__root.tsx).
 */
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
