/**
 * The smoke checks in Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core (which
 * never downloads a browser). FIREFOX_PATH names another binary.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { expect, it } from 'vitest'
import { RELOADED_AT_KEY } from '../../app/document/preload-recovery'
import { type EnginePage, engineSmoke, windowState } from './smoke'

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'

/** Uncaught errors in any Firefox page during the run. */
const pageErrors: string[] = []

function launch(prefs: Record<string, unknown> = {}): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: prefs,
  })
}

function firefoxPage(tab: Page): EnginePage {
  tab.on('pageerror', (error) => pageErrors.push(`${tab.url()}: ${error instanceof Error ? error.message : error}`))
  /**
   * The element, scrolled to the middle of the window, and the centre of its first box (where
   * WebDriver clicks an element, its "in-view centre point"). Puppeteer's own waiting and clicking
   * run promises in the page, which never settle while its scripts are off.
   */
  const target = async (selector: string) => {
    const deadline = Date.now() + 10_000
    for (;;) {
      const element = await tab.$(selector)
      if (element) {
        const point = await element.evaluate((el) => {
          el.scrollIntoView({ block: 'center', behavior: 'instant' })
          // The first box: a link that wraps onto two lines has nothing of its own at its overall centre.
          const box = el.getClientRects()[0] ?? el.getBoundingClientRect()
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
        })
        await element.dispose()
        return point
      }
      if (Date.now() > deadline) throw new Error(`No element ${selector} on ${tab.url()}`)
      await new Promise((done) => setTimeout(done, 150))
    }
  }
  return {
    open: async (url) => {
      await tab.goto(url, { waitUntil: 'load' }).catch(async (error: unknown) => {
        const shown = await tab
          .evaluate(windowState, RELOADED_AT_KEY)
          .catch((reason: unknown) => `(unreadable: ${reason})`)
        throw new Error(`Opened ${url}: ${error instanceof Error ? error.message : error}; the window shows ${shown}`)
      })
    },
    run: (fn, ...args) => tab.evaluate(fn as (...a: unknown[]) => unknown, ...args) as never,
    click: async (selector) => {
      const { x, y } = await target(selector)
      await tab.mouse.click(x, y)
    },
    hover: async (selector) => {
      const { x, y } = await target(selector)
      await tab.mouse.move(x, y)
    },
    type: async (selector, text) => {
      const { x, y } = await target(selector)
      await tab.mouse.click(x, y)
      await tab.keyboard.type(text)
    },
    select: async (selector, value) => {
      await target(selector)
      await tab.select(selector, value)
    },
    resize: (width, height) => setViewport(tab, width, height),
  }
}

/**
 * The one internal this suite relies on: puppeteer's setViewport also sends BiDi's
 * emulation.setScreenOrientationOverride, which Firefox ESR 140 does not know, and fails. The frame's
 * BiDi browsing context (not in puppeteer's public types) sends browsingContext.setViewport alone.
 */
async function setViewport(tab: Page, width: number, height: number): Promise<void> {
  const context = (
    tab.mainFrame() as unknown as { browsingContext?: { setViewport?: (options: object) => Promise<void> } }
  ).browsingContext
  if (typeof context?.setViewport !== 'function')
    throw new Error(
      "puppeteer's BiDi frame no longer has browsingContext.setViewport: see setViewport in firefox.test.ts",
    )
  await context.setViewport({ viewport: { width, height }, devicePixelRatio: null })
}

engineSmoke(
  'Firefox',
  async (site) => {
    const firefox = await launch()
    // Firefox's BiDi has no command to turn scripts off in a tab: a second Firefox, scripts off.
    // It starts now, while the first one works (a Firefox takes seconds to start).
    const plainFirefox = launch({ 'javascript.enabled': false })
    plainFirefox.catch(() => undefined) // a failure is reported by the check that awaits it
    const tab = await firefox.newPage()
    const page = firefoxPage(tab)
    return {
      page,
      reportsResponseStatus: true,
      withoutJavaScript: async () => {
        const plain = await plainFirefox
        return { ...firefoxPage(await plain.newPage()), close: () => plain.close() }
      },
      // Through the stand-in for Access, as WebKit: puppeteer's own header injection over BiDi
      // intercepts every request of the tab, and a navigation could stall behind it.
      operator: async () => ({ page, origin: site.operatorOrigin }),
      close: async () => {
        await firefox.close()
        const plain = await plainFirefox.catch(() => undefined)
        if (plain?.connected) await plain.close()
      },
    }
  },
  () => {
    it('throws no uncaught error in any page along the way', () => {
      expect(pageErrors).toEqual([])
    })
  },
)
