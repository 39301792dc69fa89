import { SOURCE_FIELDS, type SourceValues, VISIT_KEY } from './visit-source'

/**
 * The contact form's half of `visit-source.ts`: reading the tab's visit back to send it. Apart from
 * it so this code travels with the form's own code, not in the first load of every page.
 */

/** The tab's visit as kept by `rememberVisit`: only known fields holding strings; empty when there is none. */
export function rememberedVisit(): SourceValues {
  const values: SourceValues = {}
  try {
    const kept: unknown = JSON.parse(window.sessionStorage.getItem(VISIT_KEY) ?? 'null')
    if (typeof kept !== 'object' || kept === null) return values
    for (const field of SOURCE_FIELDS) {
      const value = (kept as Record<string, unknown>)[field]
      if (typeof value === 'string' && value.length <= 1000) values[field] = value
    }
  } catch {
    // Unreadable: as if nothing were kept.
  }
  return values
}

/**
 * What the form sends as the enquiry's source: the tab's visit and the page the form is on; where
 * the tab kept nothing (storage off), what the server found for the page (`fallback`).
 */
export function sourceToSend(fallback: SourceValues = {}): SourceValues {
  const kept = rememberedVisit()
  const base = kept.source_first_page ? kept : fallback
  return { ...base, source_page: location.pathname }
}
