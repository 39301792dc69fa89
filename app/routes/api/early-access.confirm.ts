import { createFileRoute } from '@tanstack/react-router'
import { floodLimited } from '~/contact/index.server'
import { handleConfirmPost } from '~/notices/index.server'
import { answerResponse } from '~/server/answer'
import { log, requestIdFor } from '~/server/log.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** The confirm page's button; under the form's limits, as the withdraw link is. */
export const Route = createFileRoute('/api/early-access/confirm')({
  server: {
    handlers: {
      POST: async ({ request }) => {
        const { env } = await workerRuntime()
        const requestId = requestIdFor(request)
        const retryAfter = await floodLimited(env, request, requestId).catch(() => null)
        if (retryAfter !== null) {
          log('warn', { event: 'early_access', requestId, outcome: 'rate_limited' })
          return answerResponse(
            { status: 429, message: 'Too many requests from your network. Try again in a minute.' },
            { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' },
          )
        }
        return handleConfirmPost(request, env)
      },
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
