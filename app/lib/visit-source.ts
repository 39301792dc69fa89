/**
 * Where a visit came from, without cookies: the first page of the visit on this site, the host of
 * the site that linked to it (never the full address; none when the link was on this site), and
 * the `utm_source`, `utm_medium` and `utm_campaign` of the first page's address.
 *
 * With JavaScript, the root route's effect calls `rememberVisit()` once per page load: on the first
 * page of a visit it keeps these values for the tab, in sessionStorage, and the contact form sends
 * them with the enquiry. Without JavaScript the contact page reads its own request the same way
 * (`landingSource`) and puts what it finds in the form's hidden fields. Nothing else reads them,
 * and nothing is sent anywhere but with an enquiry. The server checks and caps every value again
 * (`schema.ts`); this file has no valibot because every page's first load carries it.
 */

/** The form fields (hidden inputs and the server function's input) that carry a lead's source. */
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

/** sessionStorage key of the tab's visit. */
export const VISIT_KEY = 'visit-source'

/** The lower-case host name of an http(s) referrer from another site; undefined for this site or anything else. */
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

/**
 * Longer values are not kept at all: the server would drop them anyway (`SOURCE_LIMITS`), and a
 * long one in the form's hidden fields could push a post past the body limit.
 */
const MAX_KEPT = 200

function utmOf(search: URLSearchParams, values: SourceValues): SourceValues {
  for (const key of UTM) {
    const value = search.get(key)
    if (value && value.length <= MAX_KEPT) values[key] = value
  }
  return values
}

/** The source of a visit that begins at `url`, reached from `referrer` (a page address or empty). */
export function landingSource(url: URL, referrer: string | null | undefined): SourceValues {
  const values: SourceValues = url.pathname.length <= MAX_KEPT ? { source_first_page: url.pathname } : {}
  const host = referrerHost(referrer, url.host)
  if (host) values.source_referrer = host
  return utmOf(url.searchParams, values)
}

/**
 * What the contact page's own request tells (no JavaScript): the page the form is on; when the
 * visit began there (no referrer, or one from another site), the rest of `landingSource`. When the
 * visitor came from a page of this site, the first page is not known; the UTM values are taken
 * from the contact page's address, else from that page's address as the referrer gives it.
 */
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

/** The tab's sessionStorage, or null where there is none or it may not be used. */
function storage(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

/**
 * Keeps this page's source for the tab when it begins a visit: nothing is kept yet, or it was
 * reached from another site or with UTM values (a new visit in the same tab). Other pages of the
 * visit leave it as it is.
 */
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
