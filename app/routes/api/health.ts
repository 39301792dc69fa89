import { createFileRoute } from '@tanstack/react-router'
import { healthReport } from '~/contact/health.server'
import { methodNotAllowed } from '~/contact/method-not-allowed.server'
import { workerEnv } from '~/contact/runtime.server'

/** `GET /api/health`: which delivery is in effect and whether it is configured. Never a secret's value. */
export const Route = createFileRoute('/api/health')({
  server: {
    handlers: {
      GET: async () =>
        Response.json(healthReport(await workerEnv()), {
          headers: { 'Cache-Control': 'no-store' },
        }),
      ANY: ({ request }) => methodNotAllowed(request, 'GET'),
    },
  },
})
