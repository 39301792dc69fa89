import { createFileRoute } from '@tanstack/react-router'
import { type AdminEnv, handleExport } from '~/admin/inbox.server'
import { methodNotAllowed, workerRuntime } from '~/contact/index.server'

/** `GET /admin/export.csv?status=…&q=…`: the enquiries of the inbox's current filter, as CSV. */
export const Route = createFileRoute('/admin/export.csv')({
  server: {
    handlers: {
      GET: async ({ request }) => handleExport(request, (await workerRuntime()).env as AdminEnv),
      ANY: () => methodNotAllowed('GET'),
    },
  },
})
