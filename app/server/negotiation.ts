/**
 * HTML or its Markdown twin (Cloudflare's "Markdown for Agents":
 * https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/). `Accept` is read as
 * RFC 9110 § 12.5.1: a type takes the `q` of the most specific range that matches (0: not acceptable).
 * Markdown only when the client names `text/markdown` with a weight above 0 and at least HTML's: a
 * wildcard alone is what browsers and most tools send, and they expect the page.
 */

interface MediaRange {
  type: string
  subtype: string
  q: number
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const [type, subtype] = range.trim().toLowerCase().split('/')
    if (!type || !subtype) continue
    let q = 1
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim().toLowerCase())
      if (name !== 'q') continue
      // RFC 9110 § 12.4.2: at most three decimals, 0 to 1. Anything else is not a weight.
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0
    }
    ranges.push({ type, subtype, q })
  }
  return ranges
}

/** How specific a range is for `type/subtype`: 2 exact, 1 the type's wildcard, 0 the wildcard for all, -1 no match. */
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 2
  if (range.type === type && range.subtype === '*') return 1
  if (range.type === '*' && range.subtype === '*') return 0
  return -1
}

function weightOf(ranges: readonly MediaRange[], mediaType: string): number {
  const [type = '', subtype = ''] = mediaType.split('/')
  let best = -1
  let q = 0
  for (const range of ranges) {
    const s = specificity(range, type, subtype)
    if (s > best) {
      best = s
      q = range.q
    }
  }
  return q
}

export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false
  const ranges = parseAccept(accept)
  const named = ranges.some((range) => range.type === 'text' && range.subtype === 'markdown')
  if (!named) return false
  const markdown = weightOf(ranges, 'text/markdown')
  return markdown > 0 && markdown >= weightOf(ranges, 'text/html')
}

/** `x-markdown-tokens`, as Cloudflare sends it: about four characters a token for English, rounded up. */
export function markdownTokens(markdown: string): number {
  return Math.ceil(markdown.length / 4)
}

const START_ACCEPTS = /(^|,)\s*(\*\/\*|text\/html)/

/**
 * Start's handler (`createStartHandler`, @tanstack/start-server-core 1.169) answers a 406 to a page
 * request whose `Accept` names neither `text/html` nor the wildcard for all types, and middleware
 * cannot change what it reads. Pages answer such a client with HTML, as their canonical links
 * promise: the wildcard is added at weight 0 ("not acceptable", RFC 9110), so the header still means
 * what the client sent. The test "a client that accepts neither gets the HTML" fails if Start changes.
 */
export function acceptingHtml(request: Request): Request {
  if (request.method !== 'GET' && request.method !== 'HEAD') return request
  const accept = request.headers.get('Accept')
  if (accept === null || START_ACCEPTS.test(accept)) return request
  const headers = new Headers(request.headers)
  headers.set('Accept', `${accept}, */*;q=0`)
  return new Request(request, { headers })
}
