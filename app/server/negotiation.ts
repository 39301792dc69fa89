/** HTML or its Markdown twin by `Accept` (RFC 9110 § 12.5.1): Markdown only when named, weighed at least as HTML. */

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

/** Start answers 406 when `Accept` names neither HTML nor the full wildcard; pages answer HTML anyway, so
 * the wildcard is added at weight 0, which still means what the client sent. */
export function acceptingHtml(request: Request): Request {
  if (request.method !== 'GET' && request.method !== 'HEAD') return request
  const accept = request.headers.get('Accept')
  if (accept === null || START_ACCEPTS.test(accept)) return request
  const headers = new Headers(request.headers)
  headers.set('Accept', `${accept}, */*;q=0`)
  return new Request(request, { headers })
}
