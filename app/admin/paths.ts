import { ADMIN_PREFIX } from '~/server/admin-path'
import type { Notice } from './notices'

// Which paths are the inbox's: decided below the inbox, where the page cache can read it too.
export { isAdminPath } from '~/server/admin-path'

/** The address of one enquiry's page in the inbox, with an action's notice. */
export const enquiryPath = (id: string, notice?: Notice) =>
  `${ADMIN_PREFIX}/enquiries/${encodeURIComponent(id)}${notice ? `?notice=${notice}` : ''}`

/** The confirmation page of a bulk erasure of held enquiries: all of them, or one day's (UTC), or one reason's. */
export function heldErasePath(selection: { day?: string; reason?: string }): string {
  const search = new URLSearchParams()
  if (selection.day) search.set('day', selection.day)
  if (selection.reason) search.set('reason', selection.reason)
  const text = search.toString()
  return `${ADMIN_PREFIX}/erase-held${text ? `?${text}` : ''}`
}
