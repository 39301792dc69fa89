import type { Locator, Page, Request } from '@playwright/test'

/** Goes to a path and waits until React has hydrated, so clicks are handled by the app. */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path)
  await waitForHydration(page)
  return response
}

/**
 * Waits until the page now shown (after a form post's redirect, say) has hydrated. A page that has
 * not within `timeout` fails with what it shows: whether its first contentful paint was reported
 * (the signal that starts its code, app/document/paint-first.tsx), which module scripts it added,
 * and how far each script's request got.
 */
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
    // Is the server at fault, or the browser? The test asks it for what the page still waits on.
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
 * Waits until React has hydrated `target`, for a part of the page that hydrates after the rest: the
 * 404 and error pages are loaded lazily, inside a Suspense boundary of their own
 * (components/lazy-pages.tsx), so `gotoHydrated` can return while a click on them is still the
 * browser's own (a link then reloads the page). It relies on an internal of react-dom 19: every
 * element React owns carries a `__reactFiber$<id>` property. If an upgrade renames it, this fails at
 * once, because the hydrated `<html>` element no longer carries it either.
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

/**
 * Opens a page with the contact form and starts to use the form, as a visitor does (a click on
 * it), then waits until its code has arrived and the form is enhanced (it validates itself). Until
 * then the form is the server's plain HTML form, which posts natively (paint-first.spec.ts).
 */
export async function gotoContactForm(page: Page, path: string) {
  const response = await gotoHydrated(page, path)
  await page.locator('#contact-form h2').click()
  await enhancedContactForm(page).waitFor({ state: 'attached' })
  return response
}

/**
 * Holds back the answers to the page's server-function calls, as a slow network would, until the
 * test releases them: for tests of what the page does while a post is on its way.
 */
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

/**
 * Waits until the page has drawn two more frames and run the tasks queued before them: by then the
 * events already sent to it are handled, and React has rendered what they set off and run its
 * effects. For a test of something that must not happen after an event.
 */
export async function afterFrames(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))
      }),
  )
}
