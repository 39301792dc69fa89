import { createFileRoute } from '@tanstack/react-router'
import { handleWithdrawPost } from '~/notices/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** The withdraw page's form: erases the enquiry a receipt's valid link names (docs/notices.md). */
export const Route = createFileRoute('/api/withdraw')({
  server: {
    handlers: {
      POST: async ({ request }) => handleWithdrawPost(request, (await workerRuntime()).env),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
