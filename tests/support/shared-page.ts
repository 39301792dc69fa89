import { type BrowserContext, test as base } from '@playwright/test'

/**
 * `test` whose `page` is one tab per worker and set of context settings, reused by the next test that
 * only reads pages (a fresh context costs most of such a test's time); first visits keep a fresh one
 * (paint-first, motion). A test on it adds no listener or route and leaves no draft.
 */
export const test = base.extend<object, { sharedContexts: Map<string, BrowserContext> }>({
  sharedContexts: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const contexts = new Map<string, BrowserContext>()
      await use(contexts)
      for (const context of contexts.values()) await context.close()
    },
    { scope: 'worker' },
  ],
  page: async (
    {
      sharedContexts,
      browser,
      baseURL,
      javaScriptEnabled,
      reducedMotion,
      userAgent,
      deviceScaleFactor,
      isMobile,
      hasTouch,
      viewport,
    },
    use,
  ) => {
    const options = { baseURL, javaScriptEnabled, reducedMotion, userAgent, deviceScaleFactor, isMobile, hasTouch }
    const key = JSON.stringify(options)
    let context = sharedContexts.get(key)
    if (!context) {
      context = await browser.newContext({ ...options, viewport })
      sharedContexts.set(key, context)
    }
    const page = context.pages()[0] ?? (await context.newPage())
    if (viewport) await page.setViewportSize(viewport)
    // The pointer where a new tab has it, over nothing the last test pressed.
    await page.mouse.move(0, 0)
    await use(page)
    // Leave nothing running for the next test: no timer, animation or pending request.
    await page.goto('about:blank')
  },
})

export { expect } from '@playwright/test'
