import type { Page } from '@playwright/test'
import { gotoHydrated } from '../support/page'
import { decodePngs } from '../support/pixels'
import { VISITOR_PATHS } from '../support/routes'
import { expect, test } from '../support/shared-page'
import {
  applyTextSpacing,
  cutOffText,
  focusedUnderABar,
  inPageLinksLandingUnderABar,
  smallTargets,
} from '../support/wcag-layout'

const NARROW = { width: 320, height: 640 }
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
    // scrollHeight is a whole number: a footer ending at a fraction leaves less than a pixel of rounding.
    return { pixels: Math.max(0, Math.floor(document.documentElement.scrollHeight - end)), below }
  })
}

async function expectToEndAtTheFooter(page: Page, width: number) {
  const past = await pastTheFooter(page)
  expect.soft(past.pixels, `at ${width} px the page scrolls on below its footer over ${past.below}`).toBe(0)
}

/** Buttons and links in the page's content under 44 px tall; links inside running text are exempt (WCAG 2.5.8). */
function under44px(page: Page) {
  return page
    .getByRole('main')
    .locator('a, button')
    .evaluateAll((els) =>
      els
        .filter((el) => {
          const paragraph = el.closest('p')
          return !paragraph || paragraph.textContent?.trim() === el.textContent?.trim()
        })
        .filter((el) => el.getBoundingClientRect().height > 0 && el.getBoundingClientRect().height < 44)
        .map(
          (el) => `${el.textContent?.trim() || el.getAttribute('aria-label')} (${el.getBoundingClientRect().height}px)`,
        ),
    )
}

/** Tabs from the top of the page to its last element, noting every stop where the focus is under a bar. */
async function tabThrough(page: Page): Promise<{ stops: number; reachedFooter: boolean; obscured: string[] }> {
  const obscured: string[] = []
  let stops = 0
  let reachedFooter = false
  for (; stops < 400; stops++) {
    await page.keyboard.press('Tab')
    const focus = await focusedUnderABar(page)
    if (!focus) break
    reachedFooter ||= focus.inFooter
    if (focus.under.length) obscured.push(`${focus.focused} is under ${focus.under.join(', ')}`)
  }
  return { stops, reachedFooter, obscured }
}

// One load per page: each criterion at the widths it is about, in turn, as when a visitor turns a
// tablet or resizes the window. Soft assertions: one run names every criterion a page fails.
for (const path of VISITOR_PATHS) {
  test(`${path} ends at its footer, never scrolls sideways, reflows at 320 px, keeps the focus in sight, has targets big enough and takes text spacing`, async ({
    page,
  }) => {
    test.setTimeout(90_000)
    await page.setViewportSize(DESKTOP)
    await gotoHydrated(page, path)
    await expectToEndAtTheFooter(page, DESKTOP.width)

    await test.step('2.4.11 Focus not obscured: tabbing through the page, and following its in-page links', async () => {
      const { stops, reachedFooter, obscured } = await tabThrough(page)
      // The whole page was walked: focus was not lost on the way (it would end the walk early).
      expect(reachedFooter, `after ${stops} stops the focus had not reached the footer`).toBe(true)
      expect.soft(obscured).toEqual([])
      expect.soft(await inPageLinksLandingUnderABar(page)).toEqual([])
    })

    await page.setViewportSize(PHONE)
    await expectToEndAtTheFooter(page, PHONE.width)
    await test.step('2.5.8 Target size (minimum) at 375 px', async () => {
      expect.soft(await smallTargets(page)).toEqual([])
    })

    await test.step('buttons and links in the content at least 44 px tall at 360 px; no sideways scroll at 768 or 1920', async () => {
      await page.setViewportSize({ width: 360, height: 800 })
      expect.soft(await under44px(page)).toEqual([])
      for (const width of [768, 1920]) {
        await page.setViewportSize({ width, height: 900 })
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect.soft(overflow, `${width} px`).toBeLessThanOrEqual(0)
      }
    })

    await page.setViewportSize(NARROW)
    await test.step('1.4.10 Reflow at 320 px', async () => {
      expect.soft(await cutOffText(page)).toEqual({ overflow: 0, cut: [] })
    })

    await test.step('1.4.12 Text spacing at 320 and 1280 px', async () => {
      const { fontSize, letterSpacing } = await applyTextSpacing(page)
      expect(letterSpacing, 'the overrides apply').toBeCloseTo(0.12 * fontSize, 1)
      for (const viewport of [NARROW, DESKTOP]) {
        await page.setViewportSize(viewport)
        expect.soft(await cutOffText(page), `at ${viewport.width} px`).toEqual({ overflow: 0, cut: [] })
      }
    })
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

test('products: Explore Features scrolls to the feature matrix', async ({ page }) => {
  await gotoHydrated(page, '/products')
  const explore = page.getByRole('link', { name: 'Explore Features' })
  const target = (await explore.getAttribute('href')) ?? ''
  expect(target).toMatch(/^#[\w-]+$/)
  const matrix = page.locator(target)
  await expect(matrix).toHaveCount(1)
  await expect(matrix.getByRole('region', { name: 'Core Features' })).not.toBeInViewport()
  await explore.click()
  await expect(page).toHaveURL(new RegExp(`/products${target}$`))
  await expect(matrix.getByRole('heading', { name: 'Core Features' })).toBeInViewport()
})

test('services alternate the illustration side on wide screens and stack on small ones', async ({ page }) => {
  const sides = async () => {
    const result: string[] = []
    for (const block of await page.getByRole('main').getByRole('article').all()) {
      const image = await block.getByRole('img').boundingBox()
      const heading = await block.getByRole('heading', { level: 2 }).boundingBox()
      if (!image || !heading) throw new Error('a service block has no illustration or heading')
      if (image.y + image.height <= heading.y) result.push('above')
      else result.push(image.x < heading.x ? 'left' : 'right')
    }
    return result
  }
  await page.setViewportSize(DESKTOP)
  await page.goto('/services')
  expect(await sides()).toEqual(['left', 'right', 'left', 'right'])
  await page.setViewportSize(PHONE)
  expect(await sides()).toEqual(['above', 'above', 'above', 'above'])
})
