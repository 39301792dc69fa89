import { type PagePath, pages } from '../../app/content/pages.ts'

export type { PagePath }

/**
 * The header link that should be highlighted on each page (spec: the link matching the current
 * path), or none. A Record over the page list: a page added to app/content/pages.ts without an
 * entry here fails the type check.
 */
const CURRENT_SECTION: Record<PagePath, string | null> = {
  '/': 'Home',
  '/services': 'Services',
  '/services/devops': 'Services',
  '/services/ai-solutions': 'Services',
  '/services/automation': 'Services',
  '/services/ai-web-development': 'Services',
  '/products': 'Products',
  '/about': 'About',
  '/contact': 'Contact',
  '/coming-soon': null,
  '/privacy': null,
  '/terms': null,
}

/** Every public page of the site (the page list), with the header link that should be highlighted on it. */
export const PAGES = pages.map(({ path }) => ({ path, section: CURRENT_SECTION[path] }))

/** A path no page has: the site's 404 page. */
export const NOT_FOUND_PATH = '/no-such-page'

/**
 * What a visitor can land on: every public page and the 404 page. The layout checks walk this
 * list; the desk's pages (/admin…) join it once they have a phone layout.
 */
export const VISITOR_PATHS: readonly string[] = [...PAGES.map(({ path }) => path), NOT_FOUND_PATH]
