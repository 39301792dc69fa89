import { createFileRoute } from '@tanstack/react-router'
import { healthReport, methodNotAllowed, workerRuntime } from '~/contact/index.server'

/** `GET /api/health`: whether enquiries can be stored, and which delivery is in effect. Never a secret's value. */
export const Route = createFileRoute('/api/health')({
  server: {
    handlers: {
      GET: async () =>
        Response.json(healthReport((await workerRuntime()).env), { headers: { 'Cache-Control': 'no-store' } }),
      ANY: () => methodNotAllowed('GET'),
    },
  },
})
