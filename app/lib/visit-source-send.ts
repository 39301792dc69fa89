import { SOURCE_FIELDS, type SourceValues, VISIT_KEY } from './visit-source'

/** The form's half of `visit-source.ts`: it travels with the form's code, not in every page's first load. */

/** Only known fields holding strings; empty when nothing is kept. */
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

/** The tab's visit and the form's page; where the tab kept nothing (storage off), `fallback`. */
export function sourceToSend(fallback: SourceValues = {}): SourceValues {
  const kept = rememberedVisit()
  const base = kept.source_first_page ? kept : fallback
  return { ...base, source_page: location.pathname }
}
