/** An accepted address may hold `?`, `&`, `=`, `#`, which as written could add a hidden Bcc: the local part
 * is percent-encoded (RFC 6068 § 2), and anything but one `@` and a plain host gets no link. */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

export function mailtoHref(address: string): string | null {
  const at = address.indexOf('@')
  if (at < 1 || address.lastIndexOf('@') !== at) return null
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (!HOST_NAME.test(domain)) return null
  return `mailto:${encodeURIComponent(local)}@${domain}`
}
