/** The local part percent-encoded (RFC 6068 § 2), as an accepted `?` or `&` could add a hidden Bcc. */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

export function mailtoHref(address: string): string | null {
  const at = address.indexOf('@')
  if (at < 1 || address.lastIndexOf('@') !== at) return null
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (!HOST_NAME.test(domain)) return null
  return `mailto:${encodeURIComponent(local)}@${domain}`
}
