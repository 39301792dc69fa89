import { createFileRoute } from '@tanstack/react-router'
import { handleFormPost } from '~/contact/form-post.server'
import { methodNotAllowed } from '~/contact/method-not-allowed.server'
import { workerEnv } from '~/contact/runtime.server'

/** The contact form's action when no script runs (and an HTTP endpoint for the same flow). */
export const Route = createFileRoute('/api/contact')({
  server: {
    handlers: {
      POST: async ({ request }) => handleFormPost(request, await workerEnv()),
      ANY: ({ request }) => methodNotAllowed(request, 'POST'),
    },
  },
})
