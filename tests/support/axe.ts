import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** WCAG 2.2 A/AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/**
 * Runs axe over the page as it is now. In the page itself (`axe.run`, AxeBuilder's legacy mode):
 * its default runs each frame's part and then opens a blank page in the context to put the parts
 * together, a page (and a renderer process) more for every check, about a second each on this
 * 2-core machine. The legacy mode leaves out only frames from another origin; none of the site's
 * pages has one (the Turnstile widget's frame is on only in turnstile.spec.ts, which runs no axe),
 * and this fails rather than check less if one ever does.
 */
export async function analyzeWcag(page: Page) {
  const origin = new URL(page.url()).origin
  const foreign = page
    .frames()
    .map((frame) => frame.url())
    .filter((url) => url !== 'about:blank' && new URL(url).origin !== origin)
  if (foreign.length)
    throw new Error(`axe runs in the page and would skip frames from another origin: ${foreign.join(', ')}`)
  return new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze()
}
