/** A confirm or leave link's fields as the page reads them: strings of at most 100 characters, or none. */
export interface LinkSearch {
  id?: string
  until?: string
  sig?: string
  result?: string
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, 100) : undefined

export const linkSearch = (raw: Record<string, unknown>): LinkSearch => ({
  id: text(raw.id),
  until: text(raw.until),
  sig: text(raw.sig),
  result: text(raw.result),
})
