import { createFileRoute } from '@tanstack/react-router'
import { handleDeskAction } from '~/desk/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

export const Route = createFileRoute('/admin/actions')({
  server: {
    handlers: {
      POST: async ({ request }) => handleDeskAction(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
