/**
 * This machine's own addresses. The stand-ins the tests and local use start (form service,
 * Access key server, Turnstile's siteverify) listen on one of these; a variable that points a
 * call elsewhere is honoured only for these hosts, never for another.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** True for `127.0.0.1`, `localhost` and `[::1]` (a URL's `hostname`, IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname)
}
