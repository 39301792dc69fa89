import { createFileRoute } from '@tanstack/react-router'
import { handlePersonExport } from '~/desk/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** `GET /admin/person/export.json?email=…`: everything held about one address, as one JSON file. */
export const Route = createFileRoute('/admin/person/export.json')({
  server: {
    handlers: {
      GET: async ({ request }) => handlePersonExport(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
