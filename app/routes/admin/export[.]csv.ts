import { createFileRoute } from '@tanstack/react-router'
import { handleExport } from '~/desk/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

export const Route = createFileRoute('/admin/export.csv')({
  server: {
    handlers: {
      GET: async ({ request }) => handleExport(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
