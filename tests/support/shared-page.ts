import { type BrowserContext, test as base } from '@playwright/test'

/**
 * `test` whose `page` is one tab kept for the worker's life, for tests that only read pages: one per
 * combination of the context's settings (JavaScript on or off, reduced motion, the device), opened
 * by the first test that asks for it and reused by the next, which sets its own viewport and goes
 * to its own page: a fresh context for every test, its renderer started and every file fetched and
 * compiled again, would be most of such a test's time. What a first visit fetches is tested with a fresh context of its own
 * (paint-first.spec.ts, motion.spec.ts). A test on a shared tab adds no listener or route and types
 * nothing the page would keep (a draft), so the next one inherits none.
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
