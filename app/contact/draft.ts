import { isSubject } from '~/content/subjects'
import { CONTACT_FIELDS, type ContactValues } from './fields'

/** The unsent message, in sessionStorage. No valibot: the deferred form asks `hasDraft()` from first-load code. */
export const DRAFT_KEY = 'contact-form-draft'

function storage(): Storage | null {
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

export function loadDraft(): Partial<ContactValues> | null {
  try {
    const raw = storage()?.getItem(DRAFT_KEY)
    if (!raw) return null
    const parsed: unknown = JSON.parse(raw)
    if (typeof parsed !== 'object' || parsed === null) return null
    const draft: Partial<ContactValues> = {}
    for (const field of CONTACT_FIELDS) {
      const value = (parsed as Record<string, unknown>)[field]
      if (typeof value === 'string' && value.length <= 20_000) draft[field] = value
    }
    if (draft.subject !== undefined && draft.subject !== '' && !isSubject(draft.subject)) delete draft.subject
    return draft
  } catch {
    return null
  }
}

export function saveDraft(values: ContactValues): void {
  try {
    const empty = CONTACT_FIELDS.every((field) => values[field] === '')
    if (empty) storage()?.removeItem(DRAFT_KEY)
    else storage()?.setItem(DRAFT_KEY, JSON.stringify(values))
  } catch {
    // Storage full or disabled: a draft is a convenience only.
  }
}

export function clearDraft(): void {
  try {
    storage()?.removeItem(DRAFT_KEY)
  } catch {}
}
