import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { isAdminPath } from './admin/access.server'
import { ADMIN_HEADERS, type AdminEnv, forbidden, operatorFor } from './admin/inbox.server'
import { workerEnv } from './contact/runtime.server'
import { markServerFnStarted, refuseUndecodableServerFnCalls } from './contact/server-fn-guard'
import { FAILURE_MESSAGE } from './contact/status'
import { turnstileSetup } from './contact/turnstile.server'
import { discardBody, exceedsBodyLimit, payloadTooLarge } from './server/body-limit.server'
import { wwwRedirect } from './server/canonical-host.server'
import { cachedPage, sharedPageKey, storePage } from './server/html-cache.server'
import { jsonError } from './server/json-answer'
import { errorCause, log, requestIdFor } from './server/log.server'
import { createNonce, withSecurityHeaders } from './server/security-headers.server'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Outermost: gives each request a CSP nonce (read by the router for its inline scripts) and a
 * request id, and puts the security headers on whatever answer comes back, including the
 * refusals of the middleware below.
 */
const securityHeaders = createMiddleware().server(async ({ request, next, handlerType }) => {
  const nonce = createNonce()
  const requestId = requestIdFor(request)
  const privatePage = request.headers.has('Cookie')
  // Turnstile's origin is in the page's CSP only while Turnstile is on.
  const turnstile = turnstileSetup(await workerEnv()).on
  try {
    return await secured()
  } finally {
    // A refusal (403, 404, 413) answers without reading the body; read it anyway so the connection stays usable.
    await discardBody(request)
  }

  function finish(response: Response, setsCookie = false): Response {
    const secured = withSecurityHeaders(response, {
      nonce,
      requestId,
      privatePage: privatePage || setsCookie,
      turnstile,
    })
    // workers.dev hosts (previews, a Worker without its custom domain) stay out of search results.
    if (new URL(request.url).hostname.endsWith('.workers.dev')) secured.headers.set('X-Robots-Tag', 'noindex')
    return secured
  }

  async function secured() {
    const redirect = wwwRedirect(request)
    if (redirect) return finish(redirect)
    try {
      // A page that is the same for every visitor may come from the per-isolate page cache.
      const pageKey = sharedPageKey(request)
      const cached = pageKey ? cachedPage(pageKey, nonce) : null
      if (cached) return finish(cached)
      const result = await next({ context: { nonce, requestId } })
      const response = pageKey ? await storePage(pageKey, result.response, nonce) : result.response
      const answer = finish(response, response.headers.has('Set-Cookie'))
      return answer === result.response ? result : answer
    } catch (error) {
      if (error instanceof Response) return finish(error)
      if (handlerType !== 'serverFn') throw error
      return withSecurityHeaders(serverFnFailure(error, requestId), { requestId })
    }
  }
})

/** A server function that began running and then threw: a fault of ours, logged, never detailed to the client. */
function serverFnFailure(error: unknown, requestId: string): Response {
  log('error', { event: 'server_function_error', requestId, cause: errorCause(error) })
  return jsonError('internal_error', 500, FAILURE_MESSAGE)
}

/**
 * Start's CSRF protection. Declaring request middleware replaces Start's built-in default,
 * so it is added here explicitly, for every state-changing request (server functions and
 * the no-JavaScript form post alike): a cross-site POST gets 403.
 */
const csrf = createCsrfMiddleware({
  filter: ({ request }) => !SAFE_METHODS.has(request.method),
  failureResponse: () => jsonError('cross_site_request', 403, 'Cross-site requests are not accepted.'),
})

/** Refuses bodies over 32 KB with 413 before anything reads them, whatever the method. */
const bodyLimit = createMiddleware().server(async ({ request, next }) => {
  if (await exceedsBodyLimit(request)) return payloadTooLarge()
  return next()
})

/**
 * The operator's inbox: every `/admin` URL (pages, actions, the export, and paths that do not
 * exist) answers 403 unless the request carries a valid Cloudflare Access token, and nothing under
 * it is ever stored by a cache or indexed. The handlers check the token again themselves.
 */
const adminGate = createMiddleware().server(async ({ request, next }) => {
  if (!isAdminPath(new URL(request.url).pathname)) return next()
  if (!(await operatorFor(request, (await workerEnv()) as AdminEnv))) return forbidden()
  const { response } = await next()
  const answer = new Response(response.body, response)
  for (const [name, value] of Object.entries(ADMIN_HEADERS)) answer.headers.set(name, value)
  return answer
})

export const startInstance = createStart(() => ({
  requestMiddleware: [securityHeaders, csrf, bodyLimit, adminGate, refuseUndecodableServerFnCalls],
  functionMiddleware: [markServerFnStarted],
}))
