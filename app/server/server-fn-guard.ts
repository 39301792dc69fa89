import { createMiddleware } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { markStarted, serverFnStarted, undecodableAnswer } from './server-fn-guard.server'

/**
 * Start decodes a server function's body before any function middleware runs, and answers 500 when
 * it cannot; the contact endpoint must answer a 4xx with a reason (400 `malformed_body`, 404
 * `unknown_function`). Here, not in the `.server.ts`, because the browser's bundle carries app/start.ts.
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
