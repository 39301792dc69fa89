import { mainNav, type PagePath, pages } from '../../app/content/pages.ts'

export type { PagePath }

/**
 * The header link that should be highlighted on a page (spec: the link matching the current path):
 * its own, or the one of the section it is under (`/services/devops` under Services), or none.
 */
const currentSection = (path: PagePath): string | null =>
  mainNav.find((item) => item.to === path || (item.to !== '/' && path.startsWith(`${item.to}/`)))?.label ?? null

/** Every public page of the site (the page list), with the header link that should be highlighted on it. */
export const PAGES = pages.map(({ path }) => ({ path, section: currentSection(path) }))

/** A path no page has: the site's 404 page. */
export const NOT_FOUND_PATH = '/no-such-page'

/**
 * What a visitor can land on: every public page and the 404 page. The layout checks walk this
 * list; the desk's pages (/admin…) join it once they have a phone layout.
 */
export const VISITOR_PATHS: readonly string[] = [...PAGES.map(({ path }) => path), NOT_FOUND_PATH]
