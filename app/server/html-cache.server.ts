import { isAdminPath } from './admin-path'

/**
 * Pages the same for every visitor (a GET without cookies or query, answered 200), rendered once a
 * minute at most per isolate; each visitor gets the stored HTML with a fresh CSP nonce written in.
 */
const TTL_MS = 60_000
const MAX_ENTRIES = 64

interface Entry {
  html: string
  nonce: string
  headers: [string, string][]
  storedAt: number
}

const pages = new Map<string, Entry>()

/** Null when the page may not be shared. */
export function sharedPageKey(request: Request): string | null {
  if (request.method !== 'GET' || request.headers.has('Cookie')) return null
  const accept = request.headers.get('Accept') ?? '*/*'
  if (!/text\/html|\*\/\*/.test(accept)) return null
  const url = new URL(request.url)
  if (url.search || url.pathname.startsWith('/_serverFn') || url.pathname.startsWith('/api/')) return null
  if (isAdminPath(url.pathname)) return null
  return `${url.host}${url.pathname}`
}

export function cachedPage(key: string, nonce: string, now = Date.now()): Response | null {
  const entry = pages.get(key)
  if (!entry) return null
  if (now - entry.storedAt > TTL_MS) {
    pages.delete(key)
    return null
  }
  return new Response(entry.html.replaceAll(entry.nonce, nonce), { status: 200, headers: entry.headers })
}

/** Returns the response to send in its place (the original body was read); anything else untouched. */
export async function storePage(key: string, response: Response, nonce: string, now = Date.now()): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? ''
  if (response.status !== 200 || !type.includes('text/html') || response.headers.has('Set-Cookie')) return response
  // A page for one visitor only (the contact form, with its own idempotency key).
  if (/no-store|private/.test(response.headers.get('Cache-Control') ?? '')) return response
  const html = await response.text()
  // A nonce that also occurs as ordinary text would be rewritten on reuse; such a page is not stored.
  if (html.split(nonce).length - 1 === countNonceAttributes(html, nonce)) {
    if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value as string)
    pages.set(key, { html, nonce, headers: [...response.headers], storedAt: now })
  }
  return new Response(html, { status: 200, headers: response.headers })
}

function countNonceAttributes(html: string, nonce: string): number {
  return html.split(`nonce="${nonce}"`).length - 1 + (html.split(`content="${nonce}"`).length - 1)
}

export function clearPageCache(): void {
  pages.clear()
}
