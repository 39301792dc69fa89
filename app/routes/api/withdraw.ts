import { createFileRoute } from '@tanstack/react-router'
import { floodLimited } from '~/contact/index.server'
import { handleWithdrawPost } from '~/notices/index.server'
import { answerResponse } from '~/server/answer'
import { log, requestIdFor } from '~/server/log.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** Under the form's limits: a valid link posted in a loop answers 429 once they are spent (docs/notices.md). */
export const Route = createFileRoute('/api/withdraw')({
  server: {
    handlers: {
      POST: async ({ request }) => {
        const { env } = await workerRuntime()
        const requestId = requestIdFor(request)
        const retryAfter = await floodLimited(env, request, requestId).catch(() => null)
        if (retryAfter !== null) {
          log('warn', { event: 'withdraw', requestId, outcome: 'rate_limited' })
          return answerResponse(
            { status: 429, message: 'Too many requests from your network. Try again in a minute.' },
            { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' },
          )
        }
        return handleWithdrawPost(request, env)
      },
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
