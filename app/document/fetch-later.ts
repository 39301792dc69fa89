/**
 * Fetches a file the page in front of the visitor does not need (Inter for later pages, the icon
 * symbols for in-site navigations), at low priority, after hydration. Rejects unless the answer
 * is a success, so callers record nothing for a file they did not get.
 */
export async function fetchLater(url: string): Promise<Response> {
  // `priority` is a fetch() option browsers support; this TypeScript DOM library lacks it.
  const response = await fetch(url, { priority: 'low' } as RequestInit)
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return response
}
