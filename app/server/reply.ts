/**
 * A reply: an HTTP status with its body (and any headers), the one shape of every JSON answer the
 * Worker gives for an API call. The body is `{ ok: true }`, or `{ ok: false, error, message,
 * fields? }` with a machine-readable `error` and a sentence for people. `replyResponse` is the one
 * function that turns a reply into a `Response` (JSON, never cached, with the request's id).
 *
 * What the domain says happened is an outcome (`SubmissionOutcome`, `AttemptOutcome`, …); a
 * reply is what an endpoint answers for it. docs/architecture.md, "Words".
 */

export type ReplyBody<Code extends string = string> =
  | { ok: true }
  | { ok: false; error: Code; message: string; fields?: Record<string, string> }

export interface Reply<Code extends string = string> {
  status: number
  body: ReplyBody<Code>
  headers?: Record<string, string>
}

/** A refusal or failure: `{ ok: false, error, message }` (and `fields` naming invalid input). */
export function refusal<Code extends string>(
  error: Code,
  status: number,
  message: string,
  extra: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
): Reply<Code> {
  const body: ReplyBody<Code> = { ok: false, error, message }
  if (extra.fields) body.fields = extra.fields
  return { status, body, headers: extra.headers }
}

/** The reply as a JSON `Response`, never cached, carrying the request's id when there is one. */
export function replyResponse(reply: Reply, requestId?: string): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers }
  if (requestId) headers['X-Request-Id'] = requestId
  return Response.json(reply.body, { status: reply.status, headers })
}

/**
 * 405 for a method an endpoint does not serve. The body, if any, is never read here: the body
 * limit (32 KB, every method) has already refused a larger one, and the security middleware
 * drains what is left so the connection stays usable (workers-sdk#5095).
 */
export function methodNotAllowed(allow: string): Reply {
  return refusal('method_not_allowed', 405, `Use ${allow}.`, { headers: { Allow: allow } })
}
