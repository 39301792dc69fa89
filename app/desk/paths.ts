import { ADMIN_PREFIX } from '~/server/admin-path'
import type { Flash } from './flash'

// Below the desk, where the page cache can tell a desk path too.
export { isAdminPath } from '~/server/admin-path'

/** One enquiry's page, with an action's flash. */
export const enquiryPath = (id: string, flash?: Flash) =>
  `${ADMIN_PREFIX}/enquiries/${encodeURIComponent(id)}${flash ? `?notice=${flash}` : ''}`

/** The confirmation page of a bulk erasure of held enquiries: all, one day's (UTC) or one reason's. */
export function heldErasePath(selection: { day?: string; reason?: string }): string {
  const search = new URLSearchParams()
  if (selection.day) search.set('day', selection.day)
  if (selection.reason) search.set('reason', selection.reason)
  const text = search.toString()
  return `${ADMIN_PREFIX}/erase-held${text ? `?${text}` : ''}`
}

export const personPath = (email: string, flash?: Flash) =>
  `${ADMIN_PREFIX}/person?email=${encodeURIComponent(email)}${flash ? `&notice=${flash}` : ''}`

export const personErasePath = (email: string) => `${ADMIN_PREFIX}/person/erase?email=${encodeURIComponent(email)}`
