import type { Page } from '@playwright/test'
import { gotoHydrated } from '../support/page'
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
