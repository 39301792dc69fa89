import type { Notice } from './notices'

/** The address of one enquiry's page in the inbox, with an action's notice. */
export const enquiryPath = (id: string, notice?: Notice) =>
  `/admin/enquiries/${encodeURIComponent(id)}${notice ? `?notice=${notice}` : ''}`
