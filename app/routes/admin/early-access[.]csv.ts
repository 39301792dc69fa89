import { createFileRoute } from '@tanstack/react-router'
import { handleEarlyAccessExport } from '~/desk/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

export const Route = createFileRoute('/admin/early-access.csv')({
  server: {
    handlers: {
      GET: async ({ request }) => handleEarlyAccessExport(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
