import { mainNav, type PagePath, pages } from '../../app/content/pages.ts'

export type { PagePath }

/** The header link highlighted on a page: its own, or its section's (`/services/devops` under Services). */
const currentSection = (path: PagePath): string | null =>
  mainNav.find((item) => item.to === path || (item.to !== '/' && path.startsWith(`${item.to}/`)))?.label ?? null

/** Every public page of the site (the page list), with the header link that should be highlighted on it. */
export const PAGES = pages.map(({ path }) => ({ path, section: currentSection(path) }))

/** A path no page has: the site's 404 page. */
export const NOT_FOUND_PATH = '/no-such-page'

/** Every public page and the 404: what the layout checks walk. */
export const VISITOR_PATHS: readonly string[] = [...PAGES.map(({ path }) => path), NOT_FOUND_PATH]
