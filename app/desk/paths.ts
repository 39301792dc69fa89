import { ADMIN_PREFIX } from '~/server/admin-path'
import type { Flash } from './flash'

export { isAdminPath } from '~/server/admin-path'

export const enquiryPath = (id: string, flash?: Flash) =>
  `${ADMIN_PREFIX}/enquiries/${encodeURIComponent(id)}${flash ? `?notice=${flash}` : ''}`

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
