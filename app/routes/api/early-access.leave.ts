import { createFileRoute } from '@tanstack/react-router'
import { floodLimited } from '~/contact/index.server'
import { handleLeavePost, LEAVE_PATH } from '~/notices/index.server'
import { answerResponse, seeOther } from '~/server/answer'
import { log, requestIdFor } from '~/server/log.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** The leave button's and the one-click `List-Unsubscribe` POST (RFC 8058); a GET only shows the leave page. */
export const Route = createFileRoute('/api/early-access/leave')({
  server: {
    handlers: {
      GET: ({ request }) => seeOther(`${LEAVE_PATH}${new URL(request.url).search}`),
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
        return handleLeavePost(request, env)
      },
      ANY: () => replyResponse(methodNotAllowed('GET, POST')),
    },
  },
})
