import { contactPageSource } from '~/lib/visit-source'
import { isDeskPath } from './desk-path'
import { prefersMarkdown } from './negotiation'

/** Pages the same for every visitor, rendered at most once a minute per isolate and served with a fresh
 * nonce; once their headers are known, the Worker's entry answers them before Start runs (app/worker.ts). */
const TTL_MS = 60_000
const MAX_ENTRIES = 64
/** Not-found pages are kept apart, so a scan of unknown addresses never pushes a page out. */
const MAX_NOT_FOUND_ENTRIES = 32

/** A value a page carries for one visitor only, and how to make another. */
interface OwnValue {
  value: string
  make: () => string
}

interface Entry {
  /** The page cut where its nonce, or its own value, was; `fills[i]` says which goes after `parts[i]`. */
  parts: string[]
  fills: ('nonce' | 'own')[]
  own?: () => string
  nonce: string
  status: number
  headers: [string, string][]
  /** The headers of the first answer as it left the Worker, once it has (a copy keeps their names' case). */
  sent?: Headers
  storedAt: number
}

const pages = new Map<string, Entry>()
const notFound = new Map<string, Entry>()
const ownValues = new WeakMap<Request, OwnValue>()

/** A page with a value for one visitor (the form's key) is shared with a new value from `make` for each. */
export function shareWithOwnValue(request: Request, value: string, make: () => string): void {
  ownValues.set(request, { value, make })
}

export function ownValueOf(request: Request): OwnValue | undefined {
  return ownValues.get(request)
}

/** The contact page carries the visit's source: stored only for sources naming no other site or campaign. */
function variantOf(url: URL, request: Request): string | null {
  if (url.pathname !== '/contact') return ''
  const source = contactPageSource(url, request.headers.get('Referer'))
  if (source.source_referrer || source.utm_source || source.utm_medium || source.utm_campaign) return null
  return ` ${JSON.stringify(source)}`
}

/** Null when the page may not be shared. */
export function sharedPageKey(request: Request): string | null {
  if (request.method !== 'GET' || request.headers.has('Cookie')) return null
  const accept = request.headers.get('Accept') ?? '*/*'
  if (!/text\/html|\*\/\*/.test(accept)) return null
  const url = new URL(request.url)
  if (url.search || url.pathname.startsWith('/_serverFn') || url.pathname.startsWith('/api/')) return null
  if (isDeskPath(url.pathname)) return null
  const variant = variantOf(url, request)
  return variant === null ? null : `${url.host}${url.pathname}${variant}`
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

/** The stored page with `nonce` where it had its own, and a new own value where it had one. */
function bodyWith(entry: Entry, nonce: string): string {
  if (!entry.own) return entry.parts.join(nonce)
  const own = entry.own()
  let body = entry.parts[0] ?? ''
  for (let i = 1; i < entry.parts.length; i++) body += (entry.fills[i - 1] === 'own' ? own : nonce) + entry.parts[i]
  return body
}

/** `html` cut at every `nonce` and every `own`. */
function cut(html: string, nonce: string, own: string | undefined): Pick<Entry, 'parts' | 'fills'> {
  const parts: string[] = []
  const fills: Entry['fills'] = []
  for (const [i, piece] of html.split(nonce).entries()) {
    if (i > 0) fills.push('nonce')
    const pieces = own ? piece.split(own) : [piece]
    for (const [j, part] of pieces.entries()) {
      if (j > 0) fills.push('own')
      parts.push(part)
    }
  }
  return { parts, fills }
}

export function cachedPage(key: string, nonce: string, now = Date.now()): Response | null {
  const entry = fresh(key, now)
  if (!entry) return null
  return new Response(bodyWith(entry, nonce), { status: entry.status, headers: entry.headers })
}

/** Returns the response to send in its place (the original body was read). */
export async function storePage(
  key: string,
  response: Response,
  nonce: string,
  now = Date.now(),
  own?: OwnValue,
): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? ''
  if (response.status !== 200 && response.status !== 404) return response
  if (!type.includes('text/html') || response.headers.has('Set-Cookie')) return response
  // A page for one visitor only (a post's result), or with a value of its own it did not name.
  const cacheControl = response.headers.get('Cache-Control') ?? ''
  if (/no-store/.test(cacheControl) || (/private/.test(cacheControl) && !own)) return response
  const html = await response.text()
  // A nonce or own value that also occurs as ordinary text would be rewritten on reuse: not stored.
  const ownInPlace = !own || (html.includes(own.value) && count(html, own.value) === count(html, `"${own.value}"`))
  if (ownInPlace && count(html, nonce) === countNonceAttributes(html, nonce)) {
    const store = response.status === 404 ? notFound : pages
    if (store.size >= (store === notFound ? MAX_NOT_FOUND_ENTRIES : MAX_ENTRIES))
      store.delete(store.keys().next().value as string)
    store.set(key, {
      ...cut(html, nonce, own?.value),
      own: own?.make,
      nonce,
      status: response.status,
      headers: [...response.headers],
      storedAt: now,
    })
  }
  return new Response(html, { status: response.status, headers: response.headers })
}

function count(html: string, text: string): number {
  return html.split(text).length - 1
}

function countNonceAttributes(html: string, nonce: string): number {
  return count(html, `nonce="${nonce}"`) + count(html, `content="${nonce}"`)
}

const CSP = 'Content-Security-Policy'
const REQUEST_ID = 'X-Request-Id'

/** Every answer as it leaves: a stored page's first answer gives its headers, every middleware's included. */
export function rememberAnswer(request: Request, response: Response): Response {
  const key = sharedPageKey(request)
  const entry = key ? fresh(key, Date.now()) : null
  if (!entry || entry.sent || response.status !== entry.status) return response
  if (!response.headers.get(CSP)?.includes(`'nonce-${entry.nonce}'`)) return response
  entry.sent = new Headers(response.headers)
  return response
}

/** The stored page as the middleware would answer it, with a new nonce and request id; null when the
 * request must go through them (not shareable, not stored yet, a body, a Markdown twin). */
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
