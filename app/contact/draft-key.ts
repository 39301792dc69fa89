/** The sessionStorage key under which a visitor's unsent message is kept (see draft.ts). */
export const DRAFT_KEY = 'contact-form-draft'

/** Whether this tab holds an unsent message; false where storage cannot be read. */
export function hasDraft(): boolean {
  try {
    return typeof window !== 'undefined' && window.sessionStorage.getItem(DRAFT_KEY) !== null
  } catch {
    return false
  }
}
