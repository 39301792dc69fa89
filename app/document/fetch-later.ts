/** A file fetched when idle after hydration, so it does not lengthen hydration's last task; rejects unless ok. */
export async function fetchLater(url: string): Promise<Response> {
  await idle()
  // `priority` is a fetch() option browsers support; this TypeScript DOM library lacks it.
  const response = await fetch(url, { priority: 'low' } as RequestInit)
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return response
}

/** The next idle period, or within two seconds on a page that has none. */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 })
    else resolve()
  })
}
