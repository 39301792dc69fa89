import type { Page } from '@playwright/test'
import { gotoHydrated } from '../support/page'
import { decodePngs } from '../support/pixels'
import { VISITOR_PATHS } from '../support/routes'
import { expect, test } from '../support/shared-page'

const PHONE = { width: 375, height: 740 }
const DESKTOP = { width: 1280, height: 800 }

/** How far the page scrolls on past its footer's bottom edge, and what lies down there. */
function pastTheFooter(page: Page) {
  return page.evaluate(() => {
    const footer = document.querySelector('body > footer')
    if (!footer) throw new Error('the page has no footer')
    const end = footer.getBoundingClientRect().bottom + window.scrollY
    const below = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().bottom + window.scrollY > end + 0.5)
      .map((el) => `<${el.localName}${el.id ? `#${el.id}` : ''}>`)
    return { pixels: Math.max(0, Math.round(document.documentElement.scrollHeight - end)), below }
  })
}

// One load per page, measured at each width in turn (the layout follows the width).
for (const path of VISITOR_PATHS) {
  test(`${path} ends at its footer at 375 and 1280 px`, async ({ page }) => {
    await page.setViewportSize(PHONE)
    await gotoHydrated(page, path)
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport)
      const past = await pastTheFooter(page)
      expect(past.pixels, `at ${viewport.width} px the page scrolls on below its footer over ${past.below}`).toBe(0)
    }
  })
}

test('the background glow fades into the page colour at the bottom of the window, so it never ends in a line', async ({
  page,
  browser,
}) => {
  await gotoHydrated(page, '/contact')
  // Only the background is captured: all drawn over it is hidden. Written through the CSSOM, which
  // the page's CSP allows (it refuses style sheets and style attributes).
  const pageColour = await page.evaluate(() => {
    for (const el of document.body.children)
      if (!el.matches('[data-testid="decorative-background"]')) (el as HTMLElement).style.visibility = 'hidden'
    return getComputedStyle(document.documentElement).backgroundColor
  })
  const [red, green, blue] = (pageColour.match(/\d+/g) ?? []).map(Number)
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport)
    const shot = await page.screenshot({ clip: { x: 0, y: viewport.height - 1, width: viewport.width, height: 1 } })
    const [row] = await decodePngs(browser, [shot])
    let furthest = 0
    const data = row?.data ?? new Uint8ClampedArray()
    for (let i = 0; i < data.length; i += 4)
      furthest = Math.max(
        furthest,
        Math.abs((data[i] ?? 0) - (red ?? 0)),
        Math.abs((data[i + 1] ?? 0) - (green ?? 0)),
        Math.abs((data[i + 2] ?? 0) - (blue ?? 0)),
      )
    // Within the dithering of a drawn gradient: the colour the page goes on in below the window.
    expect(furthest, `bottom row at ${viewport.width} px against the page's ${pageColour}`).toBeLessThanOrEqual(3)
  }
})
