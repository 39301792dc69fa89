import { createFileRoute } from '@tanstack/react-router'
import { underFloodLimits } from '~/contact/index.server'
import { handleConfirmPost } from '~/notices/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'

/** The confirm page's button; under the form's limits, as the withdraw link is. */
export const Route = createFileRoute('/api/early-access/confirm')({
  server: {
    handlers: {
      POST: underFloodLimits('early_access', handleConfirmPost),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
