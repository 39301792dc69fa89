import type { Locator, Page, Request } from '@playwright/test'

/** Goes to a path and waits until React has hydrated, so clicks are handled by the app. */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path)
  await waitForHydration(page)
  return response
}

/** Waits until the page now shown has hydrated; if not, fails with its paints and scripts' requests. */
export async function waitForHydration(page: Page, timeout = 20_000) {
  try {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, {
      timeout,
      polling: 100,
    })
  } catch (error) {
    if (page.isClosed()) throw error
    const firstLine = (reason: Error) => reason.message.split('\n')[0]
    const state = await page
      .evaluate(hydrationState)
      .catch((reason: Error) => ({ text: `the page could not be read (${firstLine(reason)})`, unanswered: [] }))
    const asked = await Promise.all(
      state.unanswered.map((url) =>
        page.request
          .head(url, { timeout: 5_000 })
          .then((answer) => `${new URL(url).pathname} ${answer.status()}`)
          .catch((reason: Error) => `${new URL(url).pathname} ${firstLine(reason)}`),
      ),
    )
    const server = asked.length ? `; asked by the test now: ${asked.join('; ')}` : ''
    throw new Error(`${page.url()} did not hydrate within ${timeout} ms: ${state.text}${server}`, { cause: error })
  }
}

/** Runs in the page: what stands between it and hydration. */
function hydrationState(): { text: string; unanswered: string[] } {
  const paints = performance.getEntriesByType('paint').map((entry) => entry.name)
  const answered = new Map(
    performance.getEntriesByType('resource').map((entry) => {
      const timing = entry as PerformanceResourceTiming & { responseStatus?: number }
      return [timing.name, `${timing.responseStatus ?? '?'} in ${Math.round(timing.duration)} ms`]
    }),
  )
  const wanted = [
    ...document.querySelectorAll<HTMLScriptElement>('script[type="module"][src]'),
    ...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'),
  ].map((element) => ('src' in element ? element.src : element.href))
  const urls = [...new Set(wanted)]
  const scripts = urls.map((url) => `${new URL(url).pathname} ${answered.get(url) ?? 'not answered'}`)
  return {
    text: [
      `${document.readyState}, ${document.visibilityState}, ${Math.round(performance.now())} ms old`,
      `paints reported: ${paints.join(', ') || 'none'}`,
      `scripts the loader added: ${scripts.join('; ') || 'none'}`,
    ].join('; '),
    unanswered: urls.filter((url) => !answered.has(url)),
  }
}

/**
 * Waits until React owns `target` (the lazy 404 and error pages hydrate after the rest), by react-dom
 * 19's `__reactFiber$` property; fails at once if `<html>` no longer carries it.
 */
export async function waitUntilReactOwns(page: Page, target: Locator) {
  const internalHolds = await page.evaluate(() =>
    Object.keys(document.documentElement).some((key) => key.startsWith('__reactFiber$')),
  )
  if (!internalHolds)
    throw new Error(
      'react-dom no longer marks the elements it owns with __reactFiber$: waitUntilReactOwns needs a new sign',
    )
  await target.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const check = () =>
          Object.keys(element).some((key) => key.startsWith('__reactFiber$')) ? resolve() : requestAnimationFrame(check)
        check()
      }),
  )
}

/** Collects console errors and warnings, and uncaught exceptions, for the lifetime of the page. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  return problems
}

/** The URLs of the requests the page makes from now on that `matches` picks, in the order made. */
export function requestedUrls(page: Page, matches: (request: Request) => boolean): string[] {
  const urls: string[] = []
  page.on('request', (request) => {
    if (matches(request)) urls.push(request.url())
  })
  return urls
}

/** The contact form once its code has arrived and it has hydrated: it validates itself. */
export const enhancedContactForm = (page: Page) => page.locator('#contact-form form[novalidate]')

/** Opens a page and clicks the contact form, as a visitor does, then waits until it is enhanced. */
export async function gotoContactForm(page: Page, path: string) {
  const response = await gotoHydrated(page, path)
  await page.locator('#contact-form h2').click()
  await enhancedContactForm(page).waitFor({ state: 'attached' })
  return response
}

/** Holds back the answers to the page's server-function calls until the test releases them. */
export async function holdAnswers(page: Page): Promise<{ release(): void }> {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/_serverFn/**', async (route) => {
    const answer = await route.fetch()
    await released
    await route.fulfill({ response: answer })
  })
  return { release }
}

/** Waits two frames and a task: events sent are handled and React's effects have run. */
export async function afterFrames(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))
      }),
  )
}
