import { parseSearch } from '~/lib/search-params'
import { ADMIN_PREFIX, isDeskPath } from '~/server/desk-path'

/** A desk GET with an effect runs only from the desk itself; else the confirmation page (docs/security.md). */

export const CONFIRM_PATH = `${ADMIN_PREFIX}/confirm`

/** Pages that only show what is stored: they open from anywhere, so Access's login redirect lands on the desk. */
const WITHOUT_EFFECT = new Set(['', '/activity', '/sources', '/setup', '/erase-held', '/confirm', '/early-access'])

const canonical = (pathname: string) => {
  let path = pathname
  try {
    path = decodeURIComponent(pathname)
  } catch {
    // Undecodable: judged as written.
  }
  return path
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
}

/** What a desk GET would do, in words for the confirmation page; null: it only shows a page. */
export function deskEffect(url: URL): string | null {
  if (!isDeskPath(url.pathname)) return null
  const path = canonical(url.pathname).slice(ADMIN_PREFIX.length)
  if (WITHOUT_EFFECT.has(path)) return null
  // The query as the page's route reads it (of a repeated name, the last), not the first value.
  if (path === '/person' && !parseSearch(url.search).email) return null
  if (path === '/export.csv') return 'Download the enquiries as a CSV file.'
  if (path === '/early-access.csv')
    return 'Download the confirmed early access list, with their addresses, as a CSV file. The audit trail records it in your name.'
  if (path === '/person/export.json') return 'Download everything stored about one person as a JSON file.'
  if (path === '/person') return 'Look up one person’s enquiries. The audit trail records the look-up in your name.'
  if (path === '/person/erase') return 'Open the erasure of one person’s enquiries, which lists them.'
  if (path.startsWith('/enquiries/'))
    return 'Open an enquiry. Opening it marks it read, and the audit trail records that you opened it.'
  if (path.startsWith('/erase/')) return 'Open the erasure page of an enquiry, which shows it.'
  return 'Open this desk page.'
}

/** A navigation from the desk's own pages, or an address typed: never another site's link, nor a client that does not say. */
export function fromTheDesk(headers: Headers): boolean {
  const site = headers.get('Sec-Fetch-Site')
  return site === 'same-origin' || site === 'none'
}

export const confirmPath = (url: URL) => `${CONFIRM_PATH}?to=${encodeURIComponent(url.pathname + url.search)}`

/** Where the confirmation page may go on to: a path under the desk's, resolved as a browser would, else null;
 * `//`, `\` or a look-alike prefix would make a form action that leaves the site. */
export function confirmTarget(to: unknown): URL | null {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.includes('\\')) return null
  let url: URL
  try {
    url = new URL(to, 'https://desk.invalid')
  } catch {
    return null
  }
  const { pathname } = url
  if (url.origin !== 'https://desk.invalid' || pathname.includes('//') || pathname.includes('\\')) return null
  const lower = pathname.toLowerCase()
  if (lower !== ADMIN_PREFIX && !lower.startsWith(`${ADMIN_PREFIX}/`)) return null
  return deskEffect(url) ? url : null
}
