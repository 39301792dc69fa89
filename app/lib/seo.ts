import { site } from '~/site'

export interface PageSeo {
  /** Without the site name; the home page passes none. */
  title?: string
  description: string
  /** `/services/devops`: the canonical URL and og:url. */
  path: string
  /** The 404 page. */
  noindex?: boolean
}

/** Also its share card's title. */
const HOME_TITLE = 'DevOps, AI & Automation'

/** 1200×630 in public/og/, rendered by `npm run images`; `/og/index.png` for the home page. */
export const SHARE_CARD = { width: 1200, height: 630, type: 'image/png' } as const

export function shareCardPath(path: string): string {
  return path === '/' ? '/og/index.png' : `/og${path}.png`
}

export function shareCardTitle(title?: string): string {
  return title ?? HOME_TITLE
}

/** The path with `.md`, as https://llmstxt.org suggests; `index.html.md` where the URL has no file name. */
export function markdownPath(path: string): string {
  return path === '/' ? '/index.html.md' : `${path}.md`
}

export function absoluteUrl(path: string): string {
  return new URL(path, `${site.url}/`).toString()
}

export function pageTitle(title?: string): string {
  return title ? `${title} | ${site.name}` : `${site.name} — ${HOME_TITLE}`
}

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

/** A page for one visitor or the operators (a link from an e-mail, the desk): its title, never indexed nor followed. */
export const privateHead = (title: string) => ({
  meta: [{ title }, { name: 'robots', content: 'noindex, nofollow' }],
})

/** A page kept out of search results gets no canonical link, twin or card; nor do the root's defaults. */
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
