import { createFileRoute } from '@tanstack/react-router'
import { publicHealth } from '~/contact/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/**
 * `GET /api/health`: only whether the site is up and can store enquiries (`{ ok }`). Which delivery
 * is in effect and what it lacks are shown to operators in the inbox, not to the world.
 */
export const Route = createFileRoute('/api/health')({
  server: {
    handlers: {
      GET: async () =>
        Response.json(publicHealth((await workerRuntime()).env), { headers: { 'Cache-Control': 'no-store' } }),
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
