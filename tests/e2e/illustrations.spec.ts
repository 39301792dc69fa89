import { type Browser, expect, test } from '@playwright/test'
import { gotoHydrated, requestedUrls } from '../support/page'
import { decodePngs } from '../support/pixels'

// The illustration above the fold is drawn from a symbol the server puts in the page: it looks like its
// file, costs no request, and is there after an in-site navigation too.

const ABOVE_THE_FOLD = [
  { path: '/services', file: '/images/services/devops.svg' },
  { path: '/services/ai-solutions', file: '/images/services/ai-solutions.svg' },
  { path: '/products', file: '/images/voice-assistant-avatar.svg' },
]

/** Share of 8 × 8 blocks whose mean colour differs between two shots, in their opaque middle half. */
async function blockDifference(browser: Browser, a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await decodePngs(browser, [a, b])
  if (!x || !y || x.width !== y.width || x.height !== y.height) return 1
  const mean = (data: Uint8ClampedArray, left: number, top: number, channel: number) => {
    let sum = 0
    for (let row = top; row < top + 8; row++)
      for (let column = left; column < left + 8; column++) sum += data[(row * x.width + column) * 4 + channel] ?? 0
    return sum / 64
  }
  let differing = 0
  let compared = 0
  for (let top = Math.floor(x.height / 4); top + 8 <= (x.height * 3) / 4; top += 8)
    for (let left = Math.floor(x.width / 4); left + 8 <= (x.width * 3) / 4; left += 8) {
      compared++
      const delta = Math.max(
        ...[0, 1, 2].map((channel) => Math.abs(mean(x.data, left, top, channel) - mean(y.data, left, top, channel))),
      )
      if (delta > 16) differing++
    }
  return differing / compared
}

/** A screenshot of the illustration's file drawn by an `<img>` at the size of `shot` (a PNG). */
async function fileScreenshot(browser: Browser, baseURL: string, file: string, shot: Buffer): Promise<Buffer> {
  // A PNG's width and height are the first two fields of its header chunk.
  const [width, height] = [shot.readUInt32BE(16), shot.readUInt32BE(20)]
  const page = await browser.newPage({ viewport: { width: width + 20, height: height + 20 } })
  await page.setContent(
    `<body style="margin:0;background:#0a0f1e"><img src="${baseURL}${file}" style="display:block;width:${width}px;height:${height}px"></body>`,
  )
  await page.locator('img').evaluate((image) => (image as HTMLImageElement).decode())
  const reference = await page.locator('img').screenshot()
  await page.close()
  return reference
}

test.describe('the illustration above the fold', () => {
  for (const { path, file } of ABOVE_THE_FOLD) {
    test(`${path}: drawn from the page without JavaScript, like its file, with no image request`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 412, height: 823 } })
      const page = await context.newPage()
      const requested = requestedUrls(page, (request) => request.url().endsWith(file))
      await page.goto(path)
      const drawn = page.getByRole('main').getByRole('img').first()
      await expect(drawn).toHaveAttribute('aria-label', /\w/)
      expect(await drawn.evaluate((element) => element.tagName)).toBe('svg')
      const shot = await drawn.screenshot({ animations: 'disabled' })
      const reference = await fileScreenshot(browser, baseURL ?? '', file, shot)
      expect(await blockDifference(browser, shot, reference)).toBeLessThan(0.02)
      expect(requested).toEqual([])
      await context.close()
    })
  }

  test('on a page reached by an in-site navigation it is the file, loaded', async ({ page }) => {
    await gotoHydrated(page, '/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click()
    await expect(page).toHaveURL('/services')
    const first = page.getByRole('main').getByRole('article').first().getByRole('img')
    await expect(first).toHaveJSProperty('tagName', 'IMG')
    await expect.poll(() => first.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
  })

  test('after hydration the symbol is still what draws it, and the page has no hydration error', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await gotoHydrated(page, '/services')
    const first = page.getByRole('main').getByRole('article').first().getByRole('img')
    expect(await first.evaluate((element) => element.tagName)).toBe('svg')
    expect(errors).toEqual([])
  })
})
