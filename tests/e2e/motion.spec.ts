import { expect, type Page, test } from '@playwright/test'
import { afterFrames, gotoHydrated, requestedUrls } from '../support/page'

// No reduced-motion preference here (the suite's default is reduced).
test.use({ reducedMotion: 'no-preference' })

const motionRequests = (page: Page) =>
  requestedUrls(page, (request) => /\/assets\/(MotionFrame|motion-features)-/.test(request.url()))

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
    // The moves are handled, and React has rendered and run its effects, by the second frame after.
    await afterFrames(page)
    expect(requests).toEqual([])
    expect(await card.evaluate((el) => getComputedStyle(el).transform)).toBe('none')
  })
})

test('keyboard focus inside a card survives the switch to the animated card', async ({ page }) => {
  await gotoHydrated(page, '/')
  const link = serviceCard(page).getByRole('link').first()
  await link.focus()
  // The switch: the motion code arrives (the first mouse move asks for it), then React renders the
  // other cards animated and keeps this one, which holds the focus, as it is.
  const arrived = Promise.all(
    ['MotionFrame', 'motion-features'].map((chunk) =>
      page.waitForResponse((r) => r.url().includes(`/assets/${chunk}-`)).then((r) => r.finished()),
    ),
  )
  await page.mouse.move(5, 5)
  await page.mouse.move(15, 15)
  await arrived
  await afterFrames(page)
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

// ---- The spec's motion: first-load fade, in-view reveals, the shapes behind the content ----

/** Records the page content's opacity on every frame from the very first one. */
async function recordContentOpacity(page: Page) {
  await page.addInitScript(() => {
    const samples: number[] = []
    ;(window as unknown as { __opacity: number[] }).__opacity = samples
    const sample = () => {
      const content = document.querySelector('main > div')
      if (content) samples.push(Number(getComputedStyle(content).opacity))
      if (samples.length < 240) requestAnimationFrame(sample)
    }
    requestAnimationFrame(sample)
  })
}

test('on the first load the page content fades in over 0.5 s, readable from the first frame', async ({ page }) => {
  await recordContentOpacity(page)
  await page.goto('/services')
  const content = page.locator('main > div')
  expect(await content.evaluate((el) => getComputedStyle(el).animationName)).toBe('page-in')
  expect(await content.evaluate((el) => getComputedStyle(el).animationDuration)).toBe('0.5s')
  await expect.poll(() => page.evaluate(() => (window as unknown as { __opacity: number[] }).__opacity.at(-1))).toBe(1)
  const samples = await page.evaluate(() => (window as unknown as { __opacity: number[] }).__opacity)
  const first = samples[0] ?? 1
  expect(first).toBeGreaterThanOrEqual(0.4)
  expect(first).toBeLessThan(1)
  expect(Math.min(...samples)).toBeGreaterThanOrEqual(0.4)
})

test('without JavaScript the content fades in too, and is visible from the start', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/about')
  const content = page.locator('main > div')
  expect(await content.evaluate((el) => getComputedStyle(el).animationName)).toBe('page-in')
  expect(await content.evaluate((el) => getComputedStyle(el).animationDuration)).toBe('0.5s')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect.poll(() => content.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
  await context.close()
})

test.describe('in-view reveals', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('a section below the fold rises into place as it scrolls into view', async ({ page }) => {
    await gotoHydrated(page, '/products')
    const useCases = page.getByRole('region', { name: 'Where it helps' }).locator('.reveal').last()
    const offset = () => useCases.evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).m42)
    expect(await offset()).toBeGreaterThan(20)
    await useCases.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }))
    await expect.poll(offset).toBe(0)
  })
})

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce', viewport: { width: 375, height: 740 } })

  test('stops the first-load fade, the reveals, the background and the fade of a navigation', async ({ page }) => {
    await recordContentOpacity(page)
    await gotoHydrated(page, '/products')
    const samples = await page.evaluate(() => (window as unknown as { __opacity: number[] }).__opacity)
    expect(samples.length).toBeGreaterThan(0)
    expect(Math.min(...samples)).toBe(1)
    const reveal = page.locator('.reveal').last()
    expect(await reveal.evaluate((el) => getComputedStyle(el).transform)).toBe('none')
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0)
    await page.getByRole('button', { name: 'Open menu' }).click()
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0)
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL('/about')
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0)
  })
})

test.describe('the floating shapes stay behind the content on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  type Box = { x: number; y: number; width: number; height: number }
  const overlaps = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  const apartSideways = (a: Box, b: Box) => a.x + a.width <= b.x || b.x + b.width <= a.x

  for (const { path, targets } of [
    { path: '/', targets: ['h1', 'main section:first-of-type p'] },
    { path: '/products', targets: ['h1', 'main section:first-of-type p', 'button:has-text("Live Demo")'] },
  ]) {
    test(`${path}: no shape crosses the hero's words or its buttons, and the background is painted below them`, async ({
      page,
    }) => {
      await gotoHydrated(page, path)
      const shapes = page.locator('[data-shape]')
      await expect(shapes).toHaveCount(12)
      const shapeBoxes = (await shapes.evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect()
          return { x: r.x, y: r.y, width: r.width, height: r.height }
        }),
      )) as Box[]
      for (const selector of targets) {
        const elements = page.locator(selector)
        for (let i = 0; i < (await elements.count()); i++) {
          const box = await elements.nth(i).boundingBox()
          if (!box) continue
          for (const shape of shapeBoxes) {
            expect(overlaps(shape, box), `${selector} #${i} and a shape at ${JSON.stringify(shape)}`).toBe(false)
            // The shapes float up and down, never sideways: apart now means apart at every moment.
            expect(apartSideways(shape, box), `${selector} #${i} beside a shape`).toBe(true)
          }
        }
      }
      // Painted below the content: the backdrop is fixed at a negative z-index in the root stacking context.
      const layer = await page
        .getByTestId('decorative-background')
        .evaluate((el) => ({ z: getComputedStyle(el).zIndex, position: getComputedStyle(el).position }))
      expect(layer.position).toBe('fixed')
      expect(Number(layer.z)).toBeLessThan(0)
    })
  }
})
