/**
 * The reply link for a visitor's e-mail address in the inbox. The form accepts what a browser's
 * `type="email"` accepts, and that includes `?`, `&`, `=`, `%`, `#` and `/` in the local part:
 * written into `mailto:` as it is, `sales%40client.example?bcc=spy%40evil.example&x=@a.co` would
 * start header fields and add a hidden Bcc. So the local part is percent-encoded
 * (`encodeURIComponent`: everything but letters, digits and `-_.!~*'()`), as RFC 6068 § 2 asks: the
 * link then carries no `?`, `&`, `=`, `,` or `#` of its own, and a mail client that decodes the
 * address finds exactly the one address the visitor typed. It must have one `@` and a plain host
 * name after it (what the form allows); anything else gets no link and is shown as text.
 * https://www.rfc-editor.org/rfc/rfc6068#section-2
 */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

/** `mailto:` for exactly this one address, or null when it is not one a link can carry safely. */
export function mailtoHref(address: string): string | null {
  const at = address.indexOf('@')
  if (at < 1 || address.lastIndexOf('@') !== at) return null
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (!HOST_NAME.test(domain)) return null
  return `mailto:${encodeURIComponent(local)}@${domain}`
}
