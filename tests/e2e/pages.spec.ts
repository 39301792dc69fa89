import { gotoHydrated } from '../support/page'
import { PAGES } from '../support/routes'
import { expect, test } from '../support/shared-page'

// The pages' server HTML (status, landmarks, the spec's words, headings) and where each link goes
// are tests/worker/page-counts.test.ts's and page-links.test.ts's; here, what a browser lays out.

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

test.describe('layout', () => {
  // One load per page: the targets' sizes at a phone's width, then the width across four screens.
  for (const { path } of PAGES) {
    test(`${path}: buttons and links in page content are at least 44 px tall on small screens; it never scrolls sideways at 360, 768, 1280 or 1920 px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 360, height: 800 })
      await page.goto(path)
      // Links inside running text are exempt (WCAG 2.5.8 inline exception).
      const small = await page
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
              (el) =>
                `${el.textContent?.trim() || el.getAttribute('aria-label')} (${el.getBoundingClientRect().height}px)`,
            ),
        )
      expect(small).toEqual([])
      for (const width of [360, 768, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 })
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, `${width} px`).toBeLessThanOrEqual(0)
      }
    })
  }

  test('services alternate the illustration side on wide screens and stack on small ones', async ({ page }) => {
    const sides = async () => {
      const blocks = await page.getByRole('main').getByRole('article').all()
      const result: string[] = []
      for (const block of blocks) {
        const image = await block.getByRole('img').boundingBox()
        const heading = await block.getByRole('heading', { level: 2 }).boundingBox()
        if (!image || !heading) throw new Error('a service block has no illustration or heading')
        if (image.y + image.height <= heading.y) result.push('above')
        else result.push(image.x < heading.x ? 'left' : 'right')
      }
      return result
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/services')
    expect(await sides()).toEqual(['left', 'right', 'left', 'right'])
    // The same page turned to a phone's width: the layout follows the width.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await sides()).toEqual(['above', 'above', 'above', 'above'])
  })
})
