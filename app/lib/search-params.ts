/**
 * The address bar's query as every route reads it, the server's gate included: every value a
 * string, and of a repeated name the last. The router's default JSON parse read `until=1764…` back
 * as a number and wrote it quoted (`until=%221764…%22`): the server answered the link with a 307 to
 * that form. Every route's `validateSearch` reads strings.
 */
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
