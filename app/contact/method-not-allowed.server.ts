import { jsonError } from '~/server/json-answer'

/**
 * 405 for a method an endpoint does not serve. The body, if any, is never read here: the body
 * limit (32 KB, every method) has already refused a larger one, and the security middleware
 * drains what is left so the connection stays usable (workers-sdk#5095).
 */
export function methodNotAllowed(allow: string): Response {
  return jsonError('method_not_allowed', 405, `Use ${allow}.`, { headers: { Allow: allow } })
}
