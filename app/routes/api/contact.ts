import { createFileRoute } from '@tanstack/react-router'
import { handleFormPost } from '~/contact/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** The contact form's action when no script runs (and an HTTP endpoint for the same flow). */
export const Route = createFileRoute('/api/contact')({
  server: {
    handlers: {
      POST: async ({ request }) => handleFormPost(request, await workerRuntime()),
      ANY: () => replyResponse(methodNotAllowed('POST')),
    },
  },
})
