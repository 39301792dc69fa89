import { createFileRoute } from '@tanstack/react-router'
import { type AdminEnv, handleAdminAction } from '~/admin/inbox.server'
import { methodNotAllowed, workerRuntime } from '~/contact/index.server'

/** `POST /admin/actions`: the inbox's actions (handled, retry, release, erase), as form posts. */
export const Route = createFileRoute('/admin/actions')({
  server: {
    handlers: {
      POST: async ({ request }) => handleAdminAction(request, (await workerRuntime()).env as AdminEnv),
      ANY: () => methodNotAllowed('POST'),
    },
  },
})
