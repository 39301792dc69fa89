/** The query as every route reads it: every value a string (the last of a repeated name), since a JSON parse
 * would re-quote a number and redirect the link to that form. */
export function parseSearch(searchStr: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(searchStr))
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search))
    if (value !== undefined && value !== null) params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}
