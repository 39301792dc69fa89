/**
 * The form accepts what a browser's `type="email"` accepts, `?`, `&`, `=`, `#` included: written
 * as it is, `sales%40client.example?bcc=spy%40evil.example&x=@a.co` would add a hidden Bcc. So the
 * local part is percent-encoded (RFC 6068 § 2), and anything but one `@` and a plain host name gets
 * no link. https://www.rfc-editor.org/rfc/rfc6068#section-2
 */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

export function mailtoHref(address: string): string | null {
  const at = address.indexOf('@')
  if (at < 1 || address.lastIndexOf('@') !== at) return null
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (!HOST_NAME.test(domain)) return null
  return `mailto:${encodeURIComponent(local)}@${domain}`
}
