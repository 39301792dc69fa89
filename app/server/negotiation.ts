/**
 * Content negotiation between a page's HTML and its Markdown twin (Cloudflare's "Markdown for
 * Agents" convention: https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/).
 *
 * An `Accept` header is read as RFC 9110 § 12.5.1 says: each media range may carry a weight `q`
 * (0 to 1, default 1; 0 means "not acceptable"), and a type takes the weight of the most specific
 * range that matches it: `text/html` over `text/` with a wildcard over the wildcard for every type.
 *
 * Markdown is answered only when the client names `text/markdown` itself, with a weight above 0 and
 * at least as high as HTML's. A wildcard alone (for every type, or every text type) keeps the HTML:
 * it is what browsers and most tools send, and they expect the page.
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

/** The weight a media type gets from an `Accept` header (0 when nothing matches). */
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

/** Whether a request with this `Accept` header should get the Markdown twin of a page. */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false
  const ranges = parseAccept(accept)
  const named = ranges.some((range) => range.type === 'text' && range.subtype === 'markdown')
  if (!named) return false
  const markdown = weightOf(ranges, 'text/markdown')
  return markdown > 0 && markdown >= weightOf(ranges, 'text/html')
}

/**
 * Cloudflare's conversion sends `x-markdown-tokens`, an estimate of the answer's size in an
 * assistant's tokens. English text runs at about four characters a token in the common
 * tokenizers; this is that estimate, rounded up.
 */
export function markdownTokens(markdown: string): number {
  return Math.ceil(markdown.length / 4)
}

const START_ACCEPTS = /(^|,)\s*(\*\/\*|text\/html)/

/**
 * Start's request handler (`createStartHandler` in @tanstack/start-server-core 1.169) answers a
 * page request whose `Accept` names neither `text/html` nor the wildcard for all types with a 406
 * and a JSON body, before the page renders; request middleware cannot change the request that
 * check reads. A page should answer such a client with its HTML, as every representation's
 * canonical link promises, so a GET or HEAD like that reaches Start with the wildcard added at
 * weight 0, which RFC 9110 reads as "not acceptable": the header still means what the client
 * sent, to the negotiation above and everything else. The test "a client that accepts neither gets
 * the HTML" fails if Start's check changes.
 */
export function acceptingHtml(request: Request): Request {
  if (request.method !== 'GET' && request.method !== 'HEAD') return request
  const accept = request.headers.get('Accept')
  if (accept === null || START_ACCEPTS.test(accept)) return request
  const headers = new Headers(request.headers)
  headers.set('Accept', `${accept}, */*;q=0`)
  return new Request(request, { headers })
}
