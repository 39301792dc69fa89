import { createFileRoute } from '@tanstack/react-router'
import { underFloodLimits } from '~/contact/index.server'
import { handleWithdrawPost } from '~/notices/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'

/** Under the form's limits: a valid link posted in a loop answers 429 once they are spent (docs/notices.md). */
export const Route = createFileRoute('/api/withdraw')({
  server: {
    handlers: {
      POST: underFloodLimits('withdraw', handleWithdrawPost),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
