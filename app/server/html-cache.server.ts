import { isAdminPath } from './admin-path'
import { prefersMarkdown } from './negotiation'

/**
 * Pages the same for every visitor (a GET without cookies or query, answered 200, or the 404 page),
 * rendered once a minute at most per isolate; each visitor gets the stored HTML with a fresh CSP
 * nonce written in. Stored by the `pageCache` middleware (app/start.ts), which knows whether a page
 * may be shared; served from there until the first visitor's answer has passed every middleware,
 * then, with the headers that answer left with, by the Worker's entry before Start's handler runs
 * (`pageFromCache`, app/server.ts): the same answer without the middleware's work.
 */
const TTL_MS = 60_000
const MAX_ENTRIES = 64
/** Not-found pages are kept apart, so a scan of unknown addresses never pushes a page out. */
const MAX_NOT_FOUND_ENTRIES = 32

interface Entry {
  /** The page cut where its nonce was. */
  parts: string[]
  nonce: string
  status: number
  headers: [string, string][]
  /** The headers of the first answer as it left the Worker, once it has (a copy keeps their names' case). */
  sent?: Headers
  storedAt: number
}

const pages = new Map<string, Entry>()
const notFound = new Map<string, Entry>()

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

function fresh(key: string, now: number): Entry | null {
  const entry = pages.get(key) ?? notFound.get(key)
  if (!entry) return null
  if (now - entry.storedAt > TTL_MS) {
    pages.delete(key)
    notFound.delete(key)
    return null
  }
  return entry
}

/** The stored page with `nonce` where it had its own. */
function bodyWith(entry: Entry, nonce: string): string {
  return entry.parts.join(nonce)
}

export function cachedPage(key: string, nonce: string, now = Date.now()): Response | null {
  const entry = fresh(key, now)
  if (!entry) return null
  return new Response(bodyWith(entry, nonce), { status: entry.status, headers: entry.headers })
}

/** Returns the response to send in its place (the original body was read); anything else untouched. */
export async function storePage(key: string, response: Response, nonce: string, now = Date.now()): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? ''
  if (response.status !== 200 && response.status !== 404) return response
  if (!type.includes('text/html') || response.headers.has('Set-Cookie')) return response
  // A page for one visitor only (the contact form, with its own idempotency key).
  if (/no-store|private/.test(response.headers.get('Cache-Control') ?? '')) return response
  const html = await response.text()
  // A nonce that also occurs as ordinary text would be rewritten on reuse; such a page is not stored.
  if (html.split(nonce).length - 1 === countNonceAttributes(html, nonce)) {
    const store = response.status === 404 ? notFound : pages
    if (store.size >= (store === notFound ? MAX_NOT_FOUND_ENTRIES : MAX_ENTRIES))
      store.delete(store.keys().next().value as string)
    const parts = html.split(nonce)
    store.set(key, { parts, nonce, status: response.status, headers: [...response.headers], storedAt: now })
  }
  return new Response(html, { status: response.status, headers: response.headers })
}

function countNonceAttributes(html: string, nonce: string): number {
  return html.split(`nonce="${nonce}"`).length - 1 + (html.split(`content="${nonce}"`).length - 1)
}

const CSP = 'Content-Security-Policy'
const REQUEST_ID = 'X-Request-Id'

/**
 * Called with every answer as it leaves the Worker: the first answer of a stored page (the one
 * whose CSP carries the stored nonce) gives its headers, every middleware's included.
 */
export function rememberAnswer(request: Request, response: Response): Response {
  const key = sharedPageKey(request)
  const entry = key ? fresh(key, Date.now()) : null
  if (!entry || entry.sent || response.status !== entry.status) return response
  if (!response.headers.get(CSP)?.includes(`'nonce-${entry.nonce}'`)) return response
  entry.sent = new Headers(response.headers)
  return response
}

/**
 * The stored page as the middleware would answer it, with a new nonce and request id; null when
 * the request must go through them: not shareable, not stored, its headers not known yet, a body
 * to read, or asking for the page's Markdown twin (answered by a middleware, app/start.ts).
 */
export function pageFromCache(
  request: Request,
  make: { nonce: () => string; requestId: (request: Request) => string },
  now = Date.now(),
): Response | null {
  if (request.body !== null || prefersMarkdown(request.headers.get('Accept'))) return null
  const key = sharedPageKey(request)
  const entry = key ? fresh(key, now) : null
  if (!entry?.sent) return null
  const nonce = make.nonce()
  const headers = new Headers(entry.sent)
  headers.set(CSP, (headers.get(CSP) ?? '').replaceAll(`'nonce-${entry.nonce}'`, `'nonce-${nonce}'`))
  headers.set(REQUEST_ID, make.requestId(request))
  return new Response(bodyWith(entry, nonce), { status: entry.status, headers })
}

export function clearPageCache(): void {
  pages.clear()
  notFound.clear()
}
