/** The sessionStorage key under which a visitor's unsent message is kept (see draft.ts). */
export const DRAFT_KEY = 'contact-form-draft'

/** The tab's sessionStorage, or null where there is none or it may not be read. */
export function draftStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage
  } catch {
    return null
  }
}

/** Whether this tab holds an unsent message; false where storage cannot be read. */
export function hasDraft(): boolean {
  try {
    return (draftStorage()?.getItem(DRAFT_KEY) ?? null) !== null
  } catch {
    return false
  }
}
