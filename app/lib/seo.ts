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

export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const

export function absoluteUrl(path: string): string {
  return new URL(path, `${site.url}/`).toString()
}

export function pageTitle(title?: string): string {
  return title ? `${title} | ${site.name}` : `${site.name} — DevOps, AI & Automation`
}

/**
 * Head tags for a page: title, description, canonical link, Open Graph and Twitter cards.
 * Open Graph uses `property`, the rest `name`.
 */
export function seo({ title, description, path, noindex }: PageSeo) {
  const fullTitle = pageTitle(title)
  const url = absoluteUrl(path)
  const image = absoluteUrl(OG_IMAGE.path)
  const meta = [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.name },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:image:width', content: String(OG_IMAGE.width) },
    { property: 'og:image:height', content: String(OG_IMAGE.height) },
    { property: 'og:image:alt', content: `${site.name}: DevOps, AI and automation engineering` },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    ...(noindex ? [{ name: 'robots', content: 'noindex, follow' }] : []),
  ]
  const links = noindex ? [] : [{ rel: 'canonical', href: url }]
  return { meta, links }
}
