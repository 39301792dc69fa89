import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { exceedsBodyLimit, payloadTooLarge } from './server/body-limit.server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Start's CSRF protection. Declaring request middleware replaces Start's built-in default,
 * so it is added here explicitly, for every state-changing request (server functions and
 * the no-JavaScript form post alike): a cross-site POST gets 403.
 */
const csrf = createCsrfMiddleware({
  filter: ({ request }) => !SAFE_METHODS.has(request.method),
  failureResponse: () =>
    Response.json(
      { ok: false, error: 'cross_site_request', message: 'Cross-site requests are not accepted.' },
      { status: 403, headers: { 'Cache-Control': 'no-store' } },
    ),
})

/** Refuses bodies over 32 KB with 413 before anything parses them. */
const bodyLimit = createMiddleware().server(async ({ request, next }) => {
  if (!SAFE_METHODS.has(request.method) && (await exceedsBodyLimit(request))) return payloadTooLarge()
  return next()
})

export const startInstance = createStart(() => ({
  requestMiddleware: [csrf, bodyLimit],
}))
