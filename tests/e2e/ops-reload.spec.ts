import { expect, type Page, test } from '@playwright/test'
import { aboutPage } from '../../app/content/about'
import { waitForHydration } from '../support/page'

/** The About page's route chunk. */
const ABOUT_CHUNK = /\/assets\/about-[\w-]+\.js$/

/** That chunk gone after a deploy (404), always or only for the first page load; the 404s given. */
async function breakAboutChunk(page: Page, { firstPageOnly = false } = {}) {
  const hits: string[] = []
  let documents = 0
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents++
  })
  await page.route(ABOUT_CHUNK, async (route) => {
    if (firstPageOnly && documents > 1) return route.continue()
    hits.push(route.request().url())
    await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' })
  })
  return hits
}

/** Counts full loads of the main frame. */
function countLoads(page: Page) {
  const loads = { count: 0 }
  page.on('load', () => {
    loads.count++
  })
  return loads
}

test('a page whose lazy chunk is gone after a deploy reloads once, then works', async ({ page }) => {
  const hits = await breakAboutChunk(page, { firstPageOnly: true })
  const loads = countLoads(page)
  await page.goto('/about')
  await expect.poll(() => loads.count, { timeout: 20_000 }).toBe(2)
  await waitForHydration(page)
  expect(hits.length).toBeGreaterThanOrEqual(1)
  // The reloaded page has its chunk and navigates client-side without another reload.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click()
  await expect(page).toHaveURL(/\/services$/)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click()
  await expect(page).toHaveURL(/\/about$/)
  expect(loads.count).toBe(2)
})

test('a chunk that stays missing causes one reload, not a loop; once it answers again, Try again brings the page back', async ({
  page,
}) => {
  const hits = await breakAboutChunk(page)
  const loads = countLoads(page)
  await page.goto('/about')
  await expect.poll(() => loads.count, { timeout: 20_000 }).toBe(2)
  // The reloaded page's chunk failed too, and the failure was left to the error page: the recovery
  // had decided not to reload again before the router showed it.
  await expect(page.getByRole('heading', { name: 'Something went wrong on our side' })).toBeVisible()
  expect(loads.count).toBe(2)
  expect(hits.length).toBeGreaterThanOrEqual(2)

  // What a visitor does after a failure the recovery left to the page (a chunk that was not gone):
  // once the chunk answers again, Try again runs the page again, and the chunk is fetched anew.
  await page.unroute(ABOUT_CHUNK)
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('heading', { level: 1, name: aboutPage.title })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Something went wrong on our side' })).toHaveCount(0)
})
