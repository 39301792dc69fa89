import { createFileRoute } from '@tanstack/react-router'
import { subscriberAnnouncer, underFloodLimits } from '~/contact/index.server'
import { handleConfirmPost } from '~/notices/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'

/** The confirm page's button; under the form's limits, as the withdraw link is. */
export const Route = createFileRoute('/api/early-access/confirm')({
  server: {
    handlers: {
      POST: underFloodLimits('early_access', (request, env) =>
        handleConfirmPost(request, env, subscriberAnnouncer(env, request)),
      ),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
