/**
 * Where the operator's inbox lives: every URL under `/admin` (its pages, its actions, the export;
 * app/routes/admin/). It is here, below the inbox's folder, because the Worker's own parts must
 * tell an inbox path before any of the inbox's code runs: the page cache never stores one
 * (html-cache.server.ts). The inbox builds its addresses from the prefix and answers "is this
 * path mine?" with `isAdminPath` through its front door (app/admin/paths.ts).
 */
export const ADMIN_PREFIX = '/admin'

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
