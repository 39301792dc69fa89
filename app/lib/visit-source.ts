/** Where a visit came from, without cookies, kept per tab and sent only with an enquiry; no valibot here, as
 * every page's first load carries this file (the server checks every value again). */

export const SOURCE_FIELDS = [
  'source_page',
  'source_first_page',
  'source_referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const
export type SourceField = (typeof SOURCE_FIELDS)[number]
export type SourceValues = Partial<Record<SourceField, string>>

const UTM = ['utm_source', 'utm_medium', 'utm_campaign'] as const

export const VISIT_KEY = 'visit-source'

export function referrerHost(referrer: string | null | undefined, ownHost: string): string | undefined {
  if (!referrer) return undefined
  try {
    const url = new URL(referrer)
    if (!/^https?:$/.test(url.protocol) || url.host === ownHost) return undefined
    return url.hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/** Longer values are not kept: the server drops them, and one could push a post past the body limit. */
const MAX_KEPT = 200

function utmOf(search: URLSearchParams, values: SourceValues): SourceValues {
  for (const key of UTM) {
    const value = search.get(key)
    if (value && value.length <= MAX_KEPT) values[key] = value
  }
  return values
}

export function landingSource(url: URL, referrer: string | null | undefined): SourceValues {
  const values: SourceValues = url.pathname.length <= MAX_KEPT ? { source_first_page: url.pathname } : {}
  const host = referrerHost(referrer, url.host)
  if (host) values.source_referrer = host
  return utmOf(url.searchParams, values)
}

/** Without JavaScript, the UTM values come from this page's address, else from the referrer's. */
export function contactPageSource(url: URL, referrer: string | null | undefined): SourceValues {
  let sameSite: URL | undefined
  try {
    if (referrer && new URL(referrer).host === url.host) sameSite = new URL(referrer)
  } catch {
    // Not an address: as if there were none.
  }
  const page: SourceValues = url.pathname.length <= MAX_KEPT ? { source_page: url.pathname } : {}
  if (!sameSite) return { ...landingSource(url, referrer), ...page }
  const values = utmOf(url.searchParams, page)
  return UTM.some((key) => values[key]) ? values : utmOf(sameSite.searchParams, values)
}

function storage(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

/** A new visit: nothing kept yet, or reached from another site or with UTM values. */
export function rememberVisit(): void {
  try {
    const source = landingSource(new URL(location.href), document.referrer)
    const arrived = source.source_referrer || UTM.some((key) => source[key])
    const store = storage()
    if (store && (arrived || store.getItem(VISIT_KEY) === null)) store.setItem(VISIT_KEY, JSON.stringify(source))
  } catch {
    // Storage full or disabled: the enquiry is sent without it.
  }
}
