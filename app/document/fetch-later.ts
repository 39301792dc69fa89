/** Low priority, after hydration; rejects unless a success, so callers record nothing for a file they did not get. */
export async function fetchLater(url: string): Promise<Response> {
  // `priority` is a fetch() option browsers support; this TypeScript DOM library lacks it.
  const response = await fetch(url, { priority: 'low' } as RequestInit)
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return response
}
