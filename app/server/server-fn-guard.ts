import { createMiddleware } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { markStarted, serverFnStarted, undecodableAnswer } from './server-fn-guard.server'

/** Start answers 500 to a server-function body it cannot decode; the contact endpoint must answer a 4xx
 * with a reason. Not `.server.ts`: the browser's bundle carries app/start.ts. */
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
