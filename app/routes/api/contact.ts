import { createFileRoute } from '@tanstack/react-router'
import { handleFormPost, methodNotAllowed, workerRuntime } from '~/contact/index.server'

/** The contact form's action when no script runs (and an HTTP endpoint for the same flow). */
export const Route = createFileRoute('/api/contact')({
  server: {
    handlers: {
      POST: async ({ request }) => handleFormPost(request, await workerRuntime()),
      ANY: () => methodNotAllowed('POST'),
    },
  },
})
