import { expect, type Page, test } from '@playwright/test'
import { gotoHydrated } from '../support/page'

function motionRequests(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (r) => {
    if (/\/assets\/(MotionFrame|motion-features)-/.test(r.url())) urls.push(r.url())
  })
  return urls
}

const serviceCard = (page: Page) =>
  page
    .getByRole('heading', { name: 'Enterprise DevOps & Cloud Automation' })
    .locator('xpath=ancestor::div[contains(@class,"glass")][1]')

test('animation code is not part of the first load; the first mouse move fetches it and cards then lift', async ({
  page,
}) => {
  const requests = motionRequests(page)
  await gotoHydrated(page, '/')
  await page.waitForLoadState('networkidle')
  expect(requests).toEqual([])

  await page.mouse.move(5, 5)
  await page.mouse.move(15, 15)
  await expect.poll(() => requests.length).toBe(2)

  const card = serviceCard(page)
  await card.scrollIntoViewIfNeeded()
  const box = await card.boundingBox()
  await page.mouse.move((box?.x ?? 0) + 30, (box?.y ?? 0) + 30)
  await expect.poll(() => card.evaluate((el) => getComputedStyle(el).transform)).toBe('matrix(1, 0, 0, 1, 0, -4)')
})

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' })

  test('the animation code is never fetched and cards stay still', async ({ page }) => {
    const requests = motionRequests(page)
    await gotoHydrated(page, '/')
    await page.mouse.move(5, 5)
    await page.mouse.move(15, 15)
    const card = serviceCard(page)
    await card.scrollIntoViewIfNeeded()
    const box = await card.boundingBox()
    await page.mouse.move((box?.x ?? 0) + 30, (box?.y ?? 0) + 30)
    await page.waitForTimeout(700)
    expect(requests).toEqual([])
    expect(await card.evaluate((el) => getComputedStyle(el).transform)).toBe('none')
  })
})

test('keyboard focus inside a card survives the switch to the animated card', async ({ page }) => {
  await gotoHydrated(page, '/')
  const link = serviceCard(page).getByRole('link').first()
  await link.focus()
  await page.mouse.move(5, 5)
  await page.mouse.move(15, 15)
  await page.waitForTimeout(700)
  await expect(link).toBeFocused()
})

test('a first mouse move straight onto a card link and a click still navigate (the card is not swapped under the pointer)', async ({
  page,
}) => {
  for (let i = 0; i < 3; i++) {
    await gotoHydrated(page, '/')
    const link = serviceCard(page).getByRole('link').first()
    const href = await link.getAttribute('href')
    await link.click()
    await expect(page).toHaveURL(href ?? '')
  }
})
