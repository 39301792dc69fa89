import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { FAILURE_MESSAGE, turnstileSetup } from './contact/index.server'
import { confirmPath, deskEffect, fromTheDesk, operatorFor } from './desk/index.server'
import { isSignedLeave } from './notices/index.server'
import { markdownTwin, negotiablePage, negotiatedTwin } from './server/ai-pages.server'
import { forbidden, seeOther } from './server/answer'
import { discardBody, exceedsBodyLimit, payloadTooLarge } from './server/body-limit.server'
import { wwwRedirect } from './server/canonical-host.server'
import { DESK_HEADERS, isDeskPath } from './server/desk-path'
import { cachedPage, ownValueOf, sharedPageKey, storePage } from './server/html-cache.server'
import { errorCause, log, requestIdFor } from './server/log.server'
import { refusal, replyResponse } from './server/reply'
import { workerEnv } from './server/runtime.server'
import { createNonce, upgradesInsecureRequests, withSecurityHeaders } from './server/security-headers.server'
import { markServerFnStarted, refuseUndecodableServerFnCalls } from './server/server-fn-guard'
import { isSignedPost, markSignedPost } from './server/signed-post'

/** The request middleware, outermost first, so every answer leaves with the security headers: drainBody →
 * noindexOnWorkersDev → securityHeaders → canonicalHost → markdownTwins → pageCache → signedLeave → csrf → bodyLimit → deskGate → … */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** On a copy when the headers are immutable (a fetched or cached response). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value)
    return response
  } catch {
    const copy = new Response(response.body, response)
    copy.headers.set(name, value)
    return copy
  }
}

/** A refusal (403, 404, 413) answers without reading the body; reading it keeps the connection usable. */
const drainBody = createMiddleware().server(async ({ request, next }) => {
  try {
    return await next()
  } finally {
    await discardBody(request)
  }
})

/** Previews and a Worker without its custom domain stay out of search results. */
const noindexOnWorkersDev = createMiddleware().server(async ({ request, next }) => {
  const result = await next()
  if (!new URL(request.url).hostname.endsWith('.workers.dev')) return result
  return withHeader(result instanceof Response ? result : result.response, 'X-Robots-Tag', 'noindex')
})

/** Headers on every answer, a thrown one too; a server function that threw: a logged 500, no detail. */
const securityHeaders = createMiddleware().server(async ({ request, next, handlerType }) => {
  const nonce = createNonce()
  const requestId = requestIdFor(request)
  const turnstile = turnstileSetup(await workerEnv()).on
  // Not on http://localhost, where WebKit would fetch every asset over https.
  const upgradeInsecureRequests = upgradesInsecureRequests(request.url)
  const secure = (response: Response) =>
    withSecurityHeaders(response, {
      nonce,
      requestId,
      // A page for this visitor only: they sent a cookie, or the answer sets one.
      privatePage: request.headers.has('Cookie') || response.headers.has('Set-Cookie'),
      turnstile,
      upgradeInsecureRequests,
    })
  try {
    const result = await next({ context: { nonce, requestId } })
    const answer = secure(result.response)
    return answer === result.response ? result : answer
  } catch (error) {
    if (error instanceof Response) return secure(error)
    if (handlerType !== 'serverFn') throw error
    log('error', { event: 'server_function_error', requestId, cause: errorCause(error) })
    return withSecurityHeaders(replyResponse(refusal('internal_error', 500, FAILURE_MESSAGE)), { requestId })
  }
})

/** docs/operations/custom-domain.md. */
const canonicalHost = createMiddleware().server(async ({ request, next }) => wwwRedirect(request) ?? next())

/** Markdown twins, answered before the page cache; other pages get `Vary: Accept` (two representations). */
const markdownTwins = createMiddleware().server(async ({ request, next }) => {
  const twin = markdownTwin(request)
  if (twin) return twin
  const page = negotiablePage(request)
  if (!page) return next()
  const negotiated = negotiatedTwin(request, page)
  if (negotiated) return negotiated
  const result = await next()
  const response = result instanceof Response ? result : result.response
  const vary = response.headers.get('Vary')
  if (vary && /(^|,)\s*accept\s*(,|$)/i.test(vary)) return result
  const answer = withHeader(response, 'Vary', vary ? `${vary}, Accept` : 'Accept')
  return answer === response ? result : answer
})

const pageCache = createMiddleware()
  .middleware([securityHeaders])
  .server(async ({ request, next, context }) => {
    const key = sharedPageKey(request)
    if (!key) return next()
    const cached = cachedPage(key, context.nonce)
    if (cached) return cached
    const result = await next()
    const response = await storePage(key, result.response, context.nonce, Date.now(), ownValueOf(request))
    return response === result.response ? result : response
  })

/**
 * Declaring request middleware replaces Start's built-in CSRF check, so it is added back here. A
 * mail client's one-click unsubscribe (RFC 8058) comes with no Origin and no cookie: it passes on
 * its signed leave token alone, which is all the endpoint acts on.
 */
const signedLeave = createMiddleware().server(async ({ request, next }) => {
  if (request.method === 'POST' && (await isSignedLeave(await workerEnv(), new URL(request.url))))
    markSignedPost(request)
  return next()
})

const csrf = createCsrfMiddleware({
  filter: ({ request }) => !SAFE_METHODS.has(request.method) && !isSignedPost(request),
  failureResponse: () => replyResponse(refusal('cross_site_request', 403, 'Cross-site requests are not accepted.')),
})

/** 413 over 32 KB, before anything reads the body, whatever the method. */
const bodyLimit = createMiddleware().server(async ({ request, next }) => {
  if (await exceedsBodyLimit(request)) return payloadTooLarge()
  return next()
})

/** 403 for every `/admin` URL without a valid Access token (the handlers check again); a GET with an effect
 * from another site gets the confirmation page, as Access adds its token to that navigation too. */
const deskGate = createMiddleware().server(async ({ request, next }) => {
  const url = new URL(request.url)
  if (!isDeskPath(url.pathname)) return next()
  const requestId = requestIdFor(request)
  if (!(await operatorFor(request, await workerEnv(), requestId))) return forbidden()
  if (SAFE_METHODS.has(request.method) && deskEffect(url) && !fromTheDesk(request.headers)) {
    log('info', {
      event: 'admin_confirm',
      requestId,
      path: url.pathname.slice(0, 100),
      fetchSite: (request.headers.get('Sec-Fetch-Site') ?? 'none sent').slice(0, 20),
    })
    return seeOther(confirmPath(url), Object.entries(DESK_HEADERS))
  }
  const { response } = await next()
  const answer = new Response(response.body, response)
  for (const [name, value] of Object.entries(DESK_HEADERS)) answer.headers.set(name, value)
  return answer
})

export const startInstance = createStart(() => ({
  requestMiddleware: [
    drainBody,
    noindexOnWorkersDev,
    securityHeaders,
    canonicalHost,
    markdownTwins,
    pageCache,
    signedLeave,
    csrf,
    bodyLimit,
    deskGate,
    refuseUndecodableServerFnCalls,
  ],
  functionMiddleware: [markServerFnStarted],
}))
