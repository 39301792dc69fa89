/** The one shape of every JSON answer to an API call (docs/architecture.md, "Words"). */

export type ReplyBody<Code extends string = string> =
  | { ok: true }
  | { ok: false; error: Code; message: string; fields?: Record<string, string> }

export interface Reply<Code extends string = string> {
  status: number
  body: ReplyBody<Code>
  headers?: Record<string, string>
}

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

/** Never cached; with the request's id when there is one. */
export function replyResponse(reply: Reply, requestId?: string): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers }
  if (requestId) headers['X-Request-Id'] = requestId
  return Response.json(reply.body, { status: reply.status, headers })
}

/** The body is never read here: the body limit refused a large one, and the middleware drains the rest (workers-sdk#5095). */
export function methodNotAllowed(allow: string): Reply {
  return refusal('method_not_allowed', 405, `Use ${allow}.`, { headers: { Allow: allow } })
}
