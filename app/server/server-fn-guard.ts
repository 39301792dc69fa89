import { createMiddleware } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { markStarted, serverFnStarted, undecodableAnswer } from './server-fn-guard.server'

/**
 * Start decodes a server function's request body (JSON + seroval, or form data) before any
 * function middleware runs, and answers 500 when it cannot: a malformed or truncated body, a
 * wrong shape, an unknown function id. For the contact endpoint that must be a 4xx with a
 * machine-readable reason. Two pieces, both registered in `app/start.ts`:
 *
 * - `markServerFnStarted` (function middleware, in `functionMiddleware`) records that the body
 *   was decoded and a server function began running for this request;
 * - `refuseUndecodableServerFnCalls` (request middleware) turns a 500 for a server-function
 *   request that never got that far into 400 `malformed_body` (404 `unknown_function` when the
 *   id matches no function). A 500 from a function that did run stays a 500.
 *
 * Two files, because `app/start.ts` (which lists the middleware) is part of the browser's bundle
 * too: the middleware objects live here, where the browser may import them (Start strips their
 * `.server` bodies), and what those bodies call lives in `server-fn-guard.server.ts`, which the
 * browser's bundle may not import.
 */
export const markServerFnStarted = createMiddleware({ type: 'function' }).server(({ next }) => {
  markStarted(getRequest())
  return next()
})

export const refuseUndecodableServerFnCalls = createMiddleware().server(async ({ request, next, handlerType }) => {
  if (handlerType !== 'serverFn') return next()
  let result: Awaited<ReturnType<typeof next>>
  try {
    result = await next()
  } catch (error) {
    if (serverFnStarted(request)) throw error
    return undecodableAnswer(request, error)
  }
  if (result.response.status !== 500 || serverFnStarted(request)) return result
  return undecodableAnswer(request, result.response)
})
