/** The unsent message, in sessionStorage; first-load code asks `hasDraft()`, so no field list here. */
export const DRAFT_KEY = 'contact-form-draft'

export function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage
  } catch {
    return null
  }
}

export function hasDraft(): boolean {
  try {
    return (storage()?.getItem(DRAFT_KEY) ?? null) !== null
  } catch {
    return false
  }
}

export function clearDraft(): void {
  try {
    storage()?.removeItem(DRAFT_KEY)
  } catch {}
}
