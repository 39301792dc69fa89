/**
 * Where the desk lives: every URL under `/admin` (app/routes/admin/). Below the desk's folder,
 * because the Worker's own parts tell a desk path before any desk code runs: the page cache never
 * stores one (html-cache.server.ts), the middleware's gate checks the operator first (start.ts).
 */
export const ADMIN_PREFIX = '/admin'

/** On every `/admin` answer, refusals included: never stored by anything, never indexed. */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
}

/** Whether a path is the inbox's (case and percent-encoding do not get around it). */
export function isAdminPath(pathname: string): boolean {
  let path = pathname
  try {
    path = decodeURIComponent(pathname)
  } catch {
    // Undecodable: judged as written.
  }
  path = path.toLowerCase().replace(/\/{2,}/g, '/')
  return path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`) || path.startsWith(`${ADMIN_PREFIX}.`)
}
