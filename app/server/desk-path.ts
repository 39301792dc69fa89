/** The desk's URLs, below its folder, so the Worker tells one before any desk code runs. */
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
