/** The contact form's server functions, mocked: `vi.mock('~/contact/contact.functions', () => import(this file))`. */
import { beforeEach, vi } from 'vitest'

export const submitContact = vi.fn()
export const getTurnstileSiteKey = vi.fn()

beforeEach(() => {
  submitContact.mockReset()
  getTurnstileSiteKey.mockReset()
})
