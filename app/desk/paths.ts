import { ADMIN_PREFIX } from '~/server/desk-path'
import type { Flash } from './flash'

export { isDeskPath } from '~/server/desk-path'

export const enquiryPath = (id: string, flash?: Flash) =>
  `${ADMIN_PREFIX}/enquiries/${encodeURIComponent(id)}${flash ? `?flash=${flash}` : ''}`

export function heldErasePath(selection: { day?: string; reason?: string }): string {
  const search = new URLSearchParams()
  if (selection.day) search.set('day', selection.day)
  if (selection.reason) search.set('reason', selection.reason)
  const text = search.toString()
  return `${ADMIN_PREFIX}/erase-held${text ? `?${text}` : ''}`
}

export const EARLY_ACCESS_PATH = `${ADMIN_PREFIX}/early-access`

export const personPath = (email: string, flash?: Flash) =>
  `${ADMIN_PREFIX}/person?email=${encodeURIComponent(email)}${flash ? `&flash=${flash}` : ''}`

export const personErasePath = (email: string) => `${ADMIN_PREFIX}/person/erase?email=${encodeURIComponent(email)}`
