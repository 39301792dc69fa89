/**
 * 405 for a method an endpoint does not serve. Reads the body first (bounded by the 32 KB limit):
 * wrangler dev drops the connection of a request whose body is left unread (workers-sdk#5095).
 */
export async function methodNotAllowed(request: Request, allow: string): Promise<Response> {
  await request.arrayBuffer().catch(() => {})
  return Response.json(
    { ok: false, error: 'method_not_allowed', message: `Use ${allow}.` },
    { status: 405, headers: { Allow: allow, 'Cache-Control': 'no-store' } },
  )
}
