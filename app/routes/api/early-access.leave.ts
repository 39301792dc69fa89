import { createFileRoute } from '@tanstack/react-router'
import { subscriberAnnouncer, underFloodLimits } from '~/contact/index.server'
import { handleLeavePost, LEAVE_PATH } from '~/notices/index.server'
import { seeOther } from '~/server/answer'
import { methodNotAllowed, replyResponse } from '~/server/reply'

/** The leave button's and the one-click `List-Unsubscribe` POST (RFC 8058); a GET only shows the leave page. */
export const Route = createFileRoute('/api/early-access/leave')({
  server: {
    handlers: {
      GET: ({ request }) => seeOther(`${LEAVE_PATH}${new URL(request.url).search}`),
      POST: underFloodLimits('early_access', (request, env) =>
        handleLeavePost(request, env, subscriberAnnouncer(env, request)),
      ),
      ANY: () => replyResponse(methodNotAllowed('GET, POST')),
    },
  },
})
