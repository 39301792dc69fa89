import { createFileRoute } from '@tanstack/react-router'
import { earlyAccessPanel, handleEarlyAccessPost } from '~/contact/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerEnv, workerRuntime } from '~/server/runtime.server'

/** The products panel's signup: the form's action without JavaScript, and its fetch with it; GET: whether it is offered. */
export const Route = createFileRoute('/api/early-access')({
  server: {
    handlers: {
      GET: async () => Response.json(earlyAccessPanel(await workerEnv()), { headers: { 'Cache-Control': 'no-store' } }),
      POST: async ({ request }) => handleEarlyAccessPost(request, await workerRuntime()),
      ANY: () => replyResponse(methodNotAllowed('GET, POST')),
    },
  },
})
