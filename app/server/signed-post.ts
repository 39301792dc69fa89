/**
 * Posts whose own signed token is their authority (a mail client's one-click unsubscribe, RFC 8058):
 * marked by a server-only middleware, read by the CSRF check's filter, which the browser's bundle carries too.
 */
const signed = new WeakSet<Request>()

export function markSignedPost(request: Request): void {
  signed.add(request)
}

export function isSignedPost(request: Request): boolean {
  return signed.has(request)
}
