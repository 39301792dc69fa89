/**
 * The smoke checks every engine runs, in one window, against the site `npm start` serves at the
 * README's plain-http address, one door a file: the pages (smoke-pages.ts), the contact form with
 * and without JavaScript (smoke-contact.ts), the desk (smoke-desk.ts), which finds the two
 * enquiries the form checks sent. Each engine's file supplies a window driven its own way.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, inject } from 'vitest'
import type { EnginesSite } from './ports'
import { contactChecks } from './smoke-contact'
import { deskChecks } from './smoke-desk'
import { pageChecks } from './smoke-pages'

/** A browser window, driven as a visitor drives it. */
export interface EnginePage {
  /** Loads an address, as typed in the address bar, and waits for its load event. */
  open(url: string): Promise<void>
  /** Runs a self-contained function in the page (a promise it returns is awaited); JSON in and out. */
  run<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>
  /** Scrolls the element into view and clicks it with the pointer. */
  click(selector: string): Promise<void>
  /** Scrolls the element into view and moves the pointer over it. */
  hover(selector: string): Promise<void>
  /** Clicks into a field and types, key by key. */
  type(selector: string, text: string): Promise<void>
  /** Chooses an option of a `<select>`. */
  select(selector: string, value: string): Promise<void>
  /** Sizes the window so that its viewport is about this wide and high. */
  resize(width: number, height: number): Promise<void>
}

export interface Engine {
  /** The window with JavaScript on, used by every check but the no-JavaScript one. */
  page: EnginePage
  /** Whether the engine's Resource Timing entries carry `responseStatus` (WebKit's do not). */
  reportsResponseStatus: boolean
  /** A second window whose page scripts never run; closed by the caller. */
  withoutJavaScript(): Promise<EnginePage & { close(): Promise<void> }>
  /** The main window, made to send the operator's token, and the address to open the desk on. */
  operator(): Promise<{ page: EnginePage; origin: string }>
  close(): Promise<void>
}

/**
 * What the window shows, for a failed `open`: its address and load state, how its document came
 * (`navigate` or `reload`), and whether the page's chunk recovery (app/document/preload-recovery.ts)
 * reloaded it (`RELOADED_AT_KEY`, passed in). Runs in the page: self-contained.
 */
export function windowState(reloadedAtKey: string): string {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
  let recovery: string | null = null
  try {
    recovery = sessionStorage.getItem(reloadedAtKey)
  } catch {}
  return [
    `${location.href} ${document.readyState}`,
    `its document came by ${entry?.type ?? 'no navigation entry'}, ${Math.round(performance.now())} ms ago`,
    recovery
      ? `the chunk recovery reloaded a page ${Date.now() - Number(recovery)} ms ago`
      : 'no chunk-recovery reload',
  ].join('; ')
}

export const DESKTOP = { width: 1280, height: 900 }
/** Below Tailwind's `lg` (1024 px): the header shows the menu toggle instead of its links. */
export const NARROW = { width: 420, height: 800 }

/** Polls `fn` in the page until it returns something truthy; errors while a page loads are retried. */
export async function until<A extends unknown[], R>(
  page: EnginePage,
  what: string,
  fn: (...args: A) => R,
  args: A,
  timeout = 20_000,
): Promise<Awaited<R>> {
  const deadline = Date.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const value = await page.run(fn, ...args)
      if (value) return value
      last = value
    } catch (error) {
      last = error instanceof Error ? error.message.split('\n')[0] : error
    }
    if (Date.now() > deadline) {
      const where = await page
        .run(
          () =>
            `${location.href}, h1 "${document.querySelector('h1')?.textContent ?? ''}", loaded by ${(performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type}, scripts ${
              (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
                .filter((entry) => entry.name.endsWith('.js'))
                .map(
                  (entry) =>
                    `${entry.name.split('/').pop()} ${Math.round(entry.startTime)}–${Math.round(entry.responseEnd)} ms`,
                )
                .join(', ') || 'none'
            }`,
        )
        .catch(() => 'unknown')
      throw new Error(`Timed out after ${timeout} ms waiting until ${what} (last: ${last}; the page: ${where})`)
    }
    await new Promise((done) => setTimeout(done, 150))
  }
}

export const hydrated = (page: EnginePage) =>
  until(page, 'React has hydrated the page', () => document.documentElement.dataset.hydrated === 'true', [], 30_000)

/** What the checks of one engine share: the site, the window, and the two enquiries the form checks send. */
export interface SmokeContext {
  site: EnginesSite
  tag: string
  engine: Engine
  page: EnginePage
  withScript: Enquiry
  withoutScript: Enquiry
}

export interface Enquiry {
  name: string
  email: string
  company: string
  subject: string
  message: string
}

/** Marks the current document, to tell a client-side navigation (mark kept) from a page load (mark gone). */
export const markDocument = (page: EnginePage) =>
  page.run(() => {
    ;(window as unknown as { engineSmoke?: string }).engineSmoke = 'this document'
  })
export const documentMark = (page: EnginePage) =>
  page.run(() => (window as unknown as { engineSmoke?: string }).engineSmoke ?? null)

/**
 * Registers the smoke checks for one engine; `launch` opens its window (and its driver). `more`
 * registers checks of this engine's own after them, in the same describe block.
 */
export function engineSmoke(
  name: string,
  launch: (site: EnginesSite) => Promise<Engine>,
  more?: (site: EnginesSite) => void,
) {
  describe(`${name}, at the README's address served by npm start`, () => {
    const site = inject('enginesSite')
    // Never all digits and one "e": the router would read `?q=31e55737` as a number.
    const tag = `t${randomBytes(4).toString('hex')}`
    const withScript: Enquiry = {
      name: `${name} Visitor ${tag}`,
      email: `${name.toLowerCase()}-js-${tag}@example.com`,
      company: 'Godavari Agro Exports',
      subject: 'devops',
      message: `We need CI/CD for 40 services.\nSent from ${name} with JavaScript.`,
    }
    const withoutScript: Enquiry = {
      name: `${name} Reader ${tag}`,
      email: `${name.toLowerCase()}-nojs-${tag}@example.com`,
      company: '',
      subject: 'website',
      message: `A site for our shop.\nSent from ${name} without JavaScript.`,
    }
    let engine: Engine
    let page: EnginePage

    beforeAll(async () => {
      engine = await launch(site)
      page = engine.page
    }, 60_000)

    afterAll(async () => {
      await engine?.close()
    })

    const s = {
      site,
      tag,
      withScript,
      withoutScript,
      get engine() {
        return engine
      },
      get page() {
        return page
      },
    }
    pageChecks(s)
    contactChecks(s)
    deskChecks(s)

    more?.(site)
  })
}
