import { readFileSync } from 'node:fs'
import { test as freshTest } from '@playwright/test'
import { site } from '../../app/site'
import { collectProblems, gotoHydrated, requestedUrls, waitUntilReactOwns } from '../support/page'
import { decodePngs } from '../support/pixels'
import { expect, test } from '../support/shared-page'

// The server HTML of each page, the footer's links and the 404's are tests/worker's (page-counts,
// page-links, seo). Tests that listen to the console or requests have a tab of their own (freshTest).

freshTest(
  'the 404 page comes alive in the browser: its links navigate without a reload, nothing is logged',
  async ({ page }) => {
    const problems = collectProblems(page)
    await gotoHydrated(page, '/this-page-does-not-exist')
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
    const link = page.getByRole('main').getByRole('link', { name: 'Services' }).first()
    await waitUntilReactOwns(page, link)
    await page.evaluate(() => {
      ;(window as unknown as { samePage: boolean }).samePage = true
    })
    await link.click()
    await expect(page).toHaveURL('/services')
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Page not found')
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    // Chromium reports the document's own 404 status once; that is the answer, not a problem.
    const statusReports = problems.filter((p) => p.includes('status of 404'))
    expect(statusReports).toHaveLength(1)
    expect(problems.filter((p) => !statusReports.includes(p))).toEqual([])
  },
)

test('the decorative background spreads 12 shapes and 6 orbs across the page, each in its own place', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/')
  const boxes = async (selector: string) =>
    page.locator(selector).evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect()
        return {
          x: Math.round(r.left),
          y: Math.round(r.top),
          size: Math.round(r.width),
          colour: getComputedStyle(el).color,
        }
      }),
    )
  const shapes = await boxes('[data-shape]')
  const orbs = await boxes('[data-orb]')
  expect(shapes).toHaveLength(12)
  expect(orbs).toHaveLength(6)
  expect(new Set(shapes.map((b) => `${b.x},${b.y}`)).size).toBe(12)
  expect(new Set(orbs.map((b) => `${b.x},${b.y}`)).size).toBe(6)
  for (const b of shapes) expect(b.size).toBeGreaterThanOrEqual(10)
  for (const b of orbs) expect(b.size).toBeGreaterThanOrEqual(400)
  expect(new Set(shapes.map((b) => b.colour)).size).toBeGreaterThanOrEqual(5)
})

// How a page that throws while rendering is answered (500, the designed error page in the layout)
// is tested with a real router in tests/unit/render-page.test.tsx; this checks the Worker uses it.
test('the Worker that serves the site renders pages with the 500-on-error renderer', () => {
  const worker = readFileSync('dist/server/index.js', 'utf8')
  expect(worker).toContain('render_error')
})

test.describe('header', () => {
  // Which link is current in the server's HTML: tests/worker/page-counts.test.ts; here, after a navigation.
  test('the logo goes home and Get Started opens the contact page', async ({ page }) => {
    await gotoHydrated(page, '/about')
    await page
      .getByRole('button', { name: 'Get Started' })
      .or(page.getByRole('link', { name: 'Get Started' }))
      .click()
    await expect(page).toHaveURL('/contact')
    await page.getByRole('link', { name: `${site.name} home` }).click()
    await expect(page).toHaveURL('/')
  })

  test('following a header link navigates and moves the highlight', async ({ page }) => {
    await gotoHydrated(page, '/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Products' }).click()
    await expect(page).toHaveURL('/products')
    await expect(nav.locator('a[aria-current="page"]')).toHaveText('Products')
  })
})

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('opens and closes with its toggle, locking the page scroll while open', async ({ page }) => {
    await gotoHydrated(page, '/')
    const toggle = page.getByRole('button', { name: 'Open menu' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`)
    await expect(menu).toBeHidden()

    await toggle.click()
    const close = page.getByRole('button', { name: 'Close menu' })
    await expect(close).toHaveAttribute('aria-expanded', 'true')
    await expect(menu).toBeVisible()
    await expect(menu.getByRole('link', { name: 'About' })).toBeVisible()
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')

    await close.click()
    await expect(menu).toBeHidden()
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden')
  })

  test('Escape closes it and returns focus to the toggle', async ({ page }) => {
    await gotoHydrated(page, '/')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden()
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused()
  })

  test('choosing a link navigates and closes it', async ({ page }) => {
    await gotoHydrated(page, '/')
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL('/about')
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden()
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false')
  })
})

test('a skip link moves focus to the main content', async ({ page }) => {
  await gotoHydrated(page, '/services')
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.locator('main')).toBeFocused()
})

// No page logs a console error, warning or hydration mismatch, and a client-side navigation fades
// the page in: checked on the same page loads as the CSP, in security.spec.ts.

freshTest(
  'icons named in content are in the server HTML, drawn from symbols in the page, and come with a client-side navigation',
  async ({ page, request }) => {
    // The server adds the symbols each page draws (app/document/page-symbols.server.ts); no script draws icons.
    const html = await (await request.get('/about')).text()
    expect(html).toContain('href="#icon-lightbulb"')
    expect(html).toMatch(/<svg id="icon-symbols"[^>]*><symbol id="icon-[^"]+"/)
    expect(html).toContain('<symbol id="icon-lightbulb"')
    expect(html).not.toContain('<symbol id="icon-cloud"')
    const drawn = (name: string) =>
      page
        .locator(`main svg.lucide-${name} use`)
        .first()
        .evaluate((use) => (use as SVGGraphicsElement).getBBox().width)
    const problems = collectProblems(page)
    await gotoHydrated(page, '/about')
    await expect.poll(() => drawn('lightbulb')).toBeGreaterThan(0)
    // /services draws icons /about does not have: the sprite file completes the page's symbols.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click()
    await expect(page).toHaveURL('/services')
    for (const icon of ['cloud', 'brain-circuit']) await expect.poll(() => drawn(icon)).toBeGreaterThan(0)
    expect(problems).toEqual([])
  },
)

freshTest(
  'the logo is drawn from a symbol in the page, in its gradient, without JavaScript and without a request',
  async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const logoImages = requestedUrls(
      page,
      (request) => request.resourceType() === 'image' && request.url().endsWith('/favicon.svg'),
    )
    await page.goto('/')
    const logo = page.getByRole('link', { name: `${site.name} home` }).locator('svg')
    expect(await logo.locator('use').evaluate((use) => (use as SVGGraphicsElement).getBBox().width)).toBeGreaterThan(0)
    // The gradient strokes (cyan to violet) are painted: some pixel is neither the dark tile nor the white wave.
    const shot = await logo.screenshot()
    const [pixels] = await decodePngs(browser, [shot])
    let coloured = 0
    const data = pixels?.data ?? new Uint8ClampedArray()
    for (let i = 0; i < data.length; i += 4)
      if ((data[i] ?? 255) < 190 && (data[i + 1] ?? 0) > 120 && (data[i + 2] ?? 0) > 200) coloured++
    expect(coloured).toBeGreaterThan(10)
    expect(logoImages).toEqual([])
    await context.close()
  },
)
