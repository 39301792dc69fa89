import { requestIdFor } from './log.server'
import { refusal, replyResponse } from './reply'

/** What the server-function guard's middleware (`server-fn-guard.ts`) calls, on the server only. */

/** Requests for which a server function began running, i.e. Start decoded their body. */
const started = new WeakSet<Request>()

export function markStarted(request: Request): void {
  started.add(request)
}

/** Whether a server function began running for this request (its body was decoded). */
export function serverFnStarted(request: Request): boolean {
  return started.has(request)
}

/**
 * The answer for a server-function request that failed before any function ran: 404 when the id
 * matches no function, else 400 (the body could not be decoded). `failure` is Start's error
 * answer or the error it threw.
 */
export async function undecodableAnswer(request: Request, failure: Response | unknown): Promise<Response> {
  const text =
    failure instanceof Response ? await failure.text().catch(() => '') : String((failure as Error)?.message ?? '')
  const unknown = text.includes('Server function info not found')
  const requestId = requestIdFor(request)
  return unknown
    ? replyResponse(refusal('unknown_function', 404, 'No such server function.'), requestId)
    : replyResponse(refusal('malformed_body', 400, 'The request body could not be decoded.'), requestId)
}
