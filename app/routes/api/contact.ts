import { createFileRoute } from '@tanstack/react-router'
import { handleFormPost } from '~/contact/form-post.server'
import { workerEnv } from '~/contact/runtime.server'

/** The contact form's action when no script runs (and an HTTP endpoint for the same flow). */
export const Route = createFileRoute('/api/contact')({
  server: {
    handlers: {
      POST: async ({ request }) => handleFormPost(request, await workerEnv()),
      GET: () =>
        Response.json(
          { ok: false, error: 'method_not_allowed', message: 'Send the contact form with POST.' },
          { status: 405, headers: { Allow: 'POST', 'Cache-Control': 'no-store' } },
        ),
    },
  },
})
