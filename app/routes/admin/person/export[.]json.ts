import { createFileRoute } from '@tanstack/react-router'
import { handlePersonExport } from '~/desk/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

export const Route = createFileRoute('/admin/person/export.json')({
  server: {
    handlers: {
      GET: async ({ request }) => handlePersonExport(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
