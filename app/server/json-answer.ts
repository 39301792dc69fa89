/**
 * The one shape of every JSON answer the Worker gives for an API call: `{ ok: true }`, or
 * `{ ok: false, error, message, fields? }` with a machine-readable `error` and a sentence for
 * people. Never cached.
 */
export type JsonAnswer = { ok: true } | { ok: false; error: string; message: string; fields?: Record<string, string> }

export interface JsonAnswerOptions {
  requestId?: string
  headers?: Record<string, string>
}

export function jsonAnswer(body: JsonAnswer, status: number, options: JsonAnswerOptions = {}): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...options.headers }
  if (options.requestId) headers['X-Request-Id'] = options.requestId
  return Response.json(body, { status, headers })
}

/** A refusal or failure: `{ ok: false, error, message }` (and `fields` naming invalid input). */
export function jsonError(
  error: string,
  status: number,
  message: string,
  options: JsonAnswerOptions & { fields?: Record<string, string> } = {},
): Response {
  const body: JsonAnswer = { ok: false, error, message }
  if (options.fields) body.fields = options.fields
  return jsonAnswer(body, status, options)
}

/**
 * 405 for a method an endpoint does not serve. The body, if any, is never read here: the body
 * limit (32 KB, every method) has already refused a larger one, and the security middleware
 * drains what is left so the connection stays usable (workers-sdk#5095).
 */
export function methodNotAllowed(allow: string): Response {
  return jsonError('method_not_allowed', 405, `Use ${allow}.`, { headers: { Allow: allow } })
}
