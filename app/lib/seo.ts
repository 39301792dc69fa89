import { site } from '~/site'

export interface PageSeo {
  /** Page title without the site name; the home page passes none. */
  title?: string
  description: string
  /** Path of the page, e.g. `/services/devops`; used for the canonical URL and og:url. */
  path: string
  /** Keep the page out of search results (the 404 page). */
  noindex?: boolean
}

/** The home page's title after the site's name; also its share card's title. */
const HOME_TITLE = 'DevOps, AI & Automation'

/**
 * A page's share card: a 1200×630 PNG in public/og/ showing the page's title and a line from it,
 * rendered by `npm run images` (scripts/share-cards.ts). `/og/index.png` for the home page.
 */
export const SHARE_CARD = { width: 1200, height: 630, type: 'image/png' } as const

export function shareCardPath(path: string): string {
  return path === '/' ? '/og/index.png' : `/og${path}.png`
}

/** The title a page's share card shows. */
export function shareCardTitle(title?: string): string {
  return title ?? HOME_TITLE
}

/**
 * Where a page's Markdown twin is served: the page's path with `.md` appended, as the llms.txt
 * proposal (https://llmstxt.org) suggests; a URL without a file name (the home page) appends
 * `index.html.md`, the proposal's rule for it, so a tool that derives twins by that rule finds it.
 */
export function markdownPath(path: string): string {
  return path === '/' ? '/index.html.md' : `${path}.md`
}

export function absoluteUrl(path: string): string {
  return new URL(path, `${site.url}/`).toString()
}

export function pageTitle(title?: string): string {
  return title ? `${title} | ${site.name}` : `${site.name} — ${HOME_TITLE}`
}

/** The Open Graph and Twitter tags of a page's share card. */
function shareCardMeta(path: string, title?: string) {
  const image = absoluteUrl(shareCardPath(path))
  const alt = `${shareCardTitle(title)} — ${site.name}`
  return [
    { property: 'og:image', content: image },
    { property: 'og:image:type', content: SHARE_CARD.type },
    { property: 'og:image:width', content: String(SHARE_CARD.width) },
    { property: 'og:image:height', content: String(SHARE_CARD.height) },
    { property: 'og:image:alt', content: alt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:image', content: image },
    { name: 'twitter:image:alt', content: alt },
  ]
}

/**
 * Head tags for a page: title, description, canonical link, its Markdown twin as an alternate,
 * Open Graph and Twitter tags with its share card. Open Graph uses `property`, the rest `name`.
 * A page kept out of search results (`noindex`: the 404 page) gets no canonical link, no twin and
 * no card; so do the defaults the root route gives every page (`shareCard: false`), which is all
 * the inbox has.
 */
export function seo({ title, description, path, noindex, shareCard = true }: PageSeo & { shareCard?: boolean }) {
  const fullTitle = pageTitle(title)
  const url = absoluteUrl(path)
  const meta = [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.name },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
    ...(noindex ? [{ name: 'robots', content: 'noindex, follow' }] : shareCard ? shareCardMeta(path, title) : []),
  ]
  const links = noindex
    ? []
    : [
        { rel: 'canonical', href: url },
        // For assistants and tools; browsers do not fetch it.
        { rel: 'alternate', type: 'text/markdown', href: absoluteUrl(markdownPath(path)) },
      ]
  return { meta, links }
}
