import type { Page, Route } from '@playwright/test'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { enquiry, expect, expectFields, fillForm, form, receivedOnce, test } from '../support/contact'
import { enhancedContactForm as enhanced, gotoHydrated, requestedUrls, waitForHydration } from '../support/page'

// No reduced-motion preference here (the suite's default is reduced).
test.use({ reducedMotion: 'no-preference' })

// The page paints before its client code starts; a visitor who acts before it arrives gets the same result.

/**
 * Holds the entry chunk back until the returned function fails it (the page never hydrates) or, with
 * `'hydrate'`, lets it through. Pages are opened without waiting for load, as a visitor does not.
 */
async function holdClientCode(page: Page): Promise<(then?: 'abort' | 'hydrate') => Promise<void>> {
  const held: Route[] = []
  await page.route(/\/assets\/index-[^/]+\.js$/, (route) => {
    held.push(route)
  })
  return async (then = 'abort') => {
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    for (const route of held) await (then === 'hydrate' ? route.continue() : route.abort()).catch(() => {})
  }
}

const hydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true')

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY))
/** Resolves after the browser has drawn two more frames: what hydration does to the page is done by then. */
const twoFrames = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))

test.describe('the client code starts after the first paint', () => {
  test('every script and font request starts after the first contentful paint, and the page then hydrates', async ({
    context,
  }) => {
    // Each path in a new tab: a first visit (a tab that has fetched Inter uses it from the cache).
    for (const path of ['/', '/products', '/contact']) {
      const page = await context.newPage()
      await gotoHydrated(page, path)
      const timing = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        scripts: performance
          .getEntriesByType('resource')
          .filter((r) => /\.(m?js|woff2?)(\?|$)/.test(r.name))
          .map((r) => ({ name: r.name, start: r.startTime })),
      }))
      expect(timing.fcp).not.toBeNull()
      expect(timing.scripts.length).toBeGreaterThan(0)
      for (const script of timing.scripts) expect(script.start, script.name).toBeGreaterThanOrEqual(timing.fcp ?? 0)
      await page.close()
    }
  })
})

test('Inter is fetched after the first page has painted, and used from the first paint of the next', async ({
  page,
}) => {
  const fontRequests = requestedUrls(page, (request) => request.url().includes('.woff2'))
  await gotoHydrated(page, '/')
  const bodyFont = () => page.evaluate(() => getComputedStyle(document.body).fontFamily)
  const interLoaded = () =>
    page.evaluate(async () => {
      await document.fonts.ready
      return [...document.fonts].some((face) => face.family.includes('Inter Variable') && face.status === 'loaded')
    })
  expect(await bodyFont()).toMatch(/^"Inter Fallback"/)
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('fonts'))).toBe('inter')
  // Fetched into the cache only: the page in front of the visitor never switches fonts.
  expect(fontRequests).toHaveLength(1)
  expect(await interLoaded()).toBe(false)

  await page.goto('/about')
  expect(await page.evaluate(() => document.documentElement.dataset.fonts)).toBe('inter')
  expect(await bodyFont()).toMatch(/^"Inter Variable"/)
  // The next page draws with Inter itself, taken from the cache the first page filled.
  await expect.poll(interLoaded).toBe(true)
  const [font] = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('.woff2'))
      .map((entry) => ({ transferSize: (entry as PerformanceResourceTiming).transferSize })),
  )
  expect(font?.transferSize).toBe(0)
})

test.describe('before the client code has arrived', () => {
  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 740 } })

    test('the menu opens, shows its links, and closes with Escape', async ({ page }) => {
      const release = await holdClientCode(page)
      await page.goto('/', { waitUntil: 'domcontentloaded' })
      const toggle = page.getByRole('button', { name: 'Open menu' })
      await toggle.click()
      const menu = page.getByRole('navigation', { name: 'Mobile' })
      await expect(menu).toBeVisible()
      await expect(menu.getByRole('link', { name: 'Contact' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible()
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
      await page.keyboard.press('Escape')
      await expect(menu).toBeHidden()
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible()
      expect(await hydrated(page)).toBe(false)
      await release()
    })

    test('a link in the menu navigates', async ({ page }) => {
      const release = await holdClientCode(page)
      await page.goto('/', { waitUntil: 'domcontentloaded' })
      await page.getByRole('button', { name: 'Open menu' }).click()
      await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'About' }).click()
      await expect(page).toHaveURL('/about')
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden()
      expect(await hydrated(page)).toBe(false)
      await release()
    })
  })

  test('a header link navigates', async ({ page }) => {
    const release = await holdClientCode(page)
    await page.goto('/', { waitUntil: 'domcontentloaded' })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click()
    await expect(page).toHaveURL('/products')
    await expect(page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]')).toHaveText(
      'Products',
    )
    expect(await hydrated(page)).toBe(false)
    await release()
  })

  test('the contact form posts natively and the visitor gets the result page', async ({ page }) => {
    const release = await holdClientCode(page)
    const values = enquiry('before-hydration')
    await page.goto('/contact', { waitUntil: 'domcontentloaded' })
    await fillForm(page, values)
    const [post] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST'),
      form(page).submit.click(),
    ])
    expect(post.status()).toBe(303)
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    expect(await receivedOnce(values.email)).toHaveLength(1)
    expect(await hydrated(page)).toBe(false)
    await release()
  })
})

test.describe('where the page is scrolled', () => {
  test('a visitor who scrolled down before the code arrived stays there when the page hydrates', async ({ page }) => {
    const release = await holdClientCode(page)
    await page.goto('/services/devops', { waitUntil: 'domcontentloaded' })
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.mouse.move(640, 360)
    await page.mouse.wheel(0, 900)
    await expect.poll(() => scrollY(page)).toBeGreaterThan(600)
    const scrolled = await scrollY(page)
    expect(await hydrated(page)).toBe(false)
    await release('hydrate')
    await waitForHydration(page)
    await twoFrames(page)
    expect(await scrollY(page)).toBe(scrolled)
  })

  test('a link opens the next page at its top, and Back returns to where the visitor was', async ({ page }) => {
    await gotoHydrated(page, '/services')
    const footer = page.getByRole('contentinfo')
    await footer.scrollIntoViewIfNeeded()
    const left = await scrollY(page)
    expect(left).toBeGreaterThan(300)
    await footer.getByRole('link', { name: 'About', exact: true }).click()
    await expect(page).toHaveURL('/about')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect.poll(() => scrollY(page)).toBe(0)
    await page.goBack()
    await expect(page).toHaveURL('/services')
    await expect.poll(() => scrollY(page)).toBe(left)
  })
})

test.describe('the contact form fetches its code when the visitor first uses it', () => {
  const formCode = (page: Page) =>
    requestedUrls(page, (request) => /\/assets\/ContactForm-[^/]+\.js$/.test(request.url()))

  test('not with the page; typing starts the code, and what was typed before it arrived is kept and sent', async ({
    page,
  }) => {
    const requests = formCode(page)
    await gotoHydrated(page, '/contact')
    await page.waitForLoadState('networkidle')
    expect(requests).toHaveLength(0)
    await expect(enhanced(page)).toHaveCount(0)

    const values = enquiry('first-use')
    // Keystrokes from the first one on: the first starts the download, the rest land in the plain
    // HTML field while it arrives.
    await form(page).name.pressSequentially(values.name)
    await expect(enhanced(page)).toHaveCount(1)
    expect(requests).toHaveLength(1)
    // The name is not typed again: the form took it from the field when its code arrived.
    const f = form(page)
    await f.email.fill(values.email)
    await f.company.fill(values.company)
    await f.subject.selectOption(values.subject)
    await f.message.fill(values.message)
    await expectFields(page, values)

    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    // Sent by the server function from this page, not by a native post.
    expect(new URL(page.url()).pathname).toBe('/contact')
    const received = await receivedOnce(values.email)
    expect(received).toHaveLength(1)
    expect(received[0]?.raw).toContain(values.name)
  })

  test('after an in-site navigation to /contact, the form is there and enhanced without a touch', async ({ page }) => {
    await gotoHydrated(page, '/about')
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click()
    await expect(page).toHaveURL('/contact')
    await expect(enhanced(page)).toHaveCount(1)
    await expect(form(page).name).toBeVisible()
  })
})
