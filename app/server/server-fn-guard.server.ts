import { requestIdFor } from './log.server'
import { refusal, replyResponse } from './reply'

/** Requests whose body Start decoded: a server function began running. */
const started = new WeakSet<Request>()

export function markStarted(request: Request): void {
  started.add(request)
}

export function serverFnStarted(request: Request): boolean {
  return started.has(request)
}

/** 404 when the id matches no function, else 400. `failure`: Start's error answer, or what it threw. */
export async function undecodableAnswer(request: Request, failure: Response | unknown): Promise<Response> {
  const text =
    failure instanceof Response ? await failure.text().catch(() => '') : String((failure as Error)?.message ?? '')
  const unknown = text.includes('Server function info not found')
  const requestId = requestIdFor(request)
  return unknown
    ? replyResponse(refusal('unknown_function', 404, 'No such server function.'), requestId)
    : replyResponse(refusal('malformed_body', 400, 'The request body could not be decoded.'), requestId)
}
