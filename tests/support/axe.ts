import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** WCAG 2.2 A/AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/**
 * axe's violations on the page now, one line each. Run in the page (legacy mode): the default opens
 * a blank page per check (a second each here); legacy skips only foreign frames, which this refuses.
 */
export async function analyzeWcag(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin
  const foreign = page
    .frames()
    .map((frame) => frame.url())
    .filter((url) => url !== 'about:blank' && new URL(url).origin !== origin)
  if (foreign.length)
    throw new Error(`axe runs in the page and would skip frames from another origin: ${foreign.join(', ')}`)
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze()
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}
