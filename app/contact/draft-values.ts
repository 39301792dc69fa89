import { isSubject } from '~/content/subjects'
import { CONTACT_FIELDS, type ContactValues } from '~/ledger'
import { DRAFT_KEY, storage } from './draft'

/** The draft's values, field by field from the registry; a value that cannot be one is left out. */
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
