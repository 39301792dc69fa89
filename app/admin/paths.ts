import type { Notice } from './notices'

/** The address of one enquiry's page in the inbox, with an action's notice. */
export const enquiryPath = (id: string, notice?: Notice) =>
  `/admin/enquiries/${encodeURIComponent(id)}${notice ? `?notice=${notice}` : ''}`

/** The confirmation page of a bulk erasure of held enquiries: all of them, or one day's (UTC), or one reason's. */
export function heldErasePath(selection: { day?: string; reason?: string }): string {
  const search = new URLSearchParams()
  if (selection.day) search.set('day', selection.day)
  if (selection.reason) search.set('reason', selection.reason)
  const text = search.toString()
  return `/admin/erase-held${text ? `?${text}` : ''}`
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
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/admin.')
}
