/** Posts whose signed token is their authority (RFC 8058's one-click): marked server-side, read by the CSRF filter. */
const signed = new WeakSet<Request>()

export function markSignedPost(request: Request): void {
  signed.add(request)
}

export function isSignedPost(request: Request): boolean {
  return signed.has(request)
}
