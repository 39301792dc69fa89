/** The tests' and local stand-ins listen here; a variable pointing a call elsewhere is honoured for these hosts only. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** A URL's `hostname`: IPv6 in brackets. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname)
}
