import { createFileRoute } from '@tanstack/react-router'
import { handleAdminAction } from '~/admin/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** `POST /admin/actions`: the inbox's actions (handled, retry, release, erase), as form posts. */
export const Route = createFileRoute('/admin/actions')({
  server: {
    handlers: {
      POST: async ({ request }) => handleAdminAction(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
