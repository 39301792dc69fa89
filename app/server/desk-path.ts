/**
 * The desk's URLs, `/admin…`: below the desk's folder, so the Worker's own parts tell one before
 * any desk code runs (the page cache never stores one; the middleware's gate checks the operator).
 */
export const ADMIN_PREFIX = '/admin'

/** On every `/admin` answer, refusals included. */
export const DESK_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
}

/** Case and percent-encoding do not get around it. */
export function isDeskPath(pathname: string): boolean {
  let path = pathname
  try {
    path = decodeURIComponent(pathname)
  } catch {
    // Undecodable: judged as written.
  }
  path = path.toLowerCase().replace(/\/{2,}/g, '/')
  return path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`) || path.startsWith(`${ADMIN_PREFIX}.`)
}
