/**
 * The smoke checks in WebKitGTK (Debian's webkit2gtk-driver): MiniBrowser driven by WebKitWebDriver
 * through selenium-webdriver. MiniBrowser needs a display, so the driver runs under `xvfb-run -a`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { Builder, By, until as becomes, Key, type WebDriver } from 'selenium-webdriver'
import { RELOADED_AT_KEY } from '../../app/document/preload-recovery'
import { type EnginePage, engineSmoke, windowState } from './smoke'

const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

/** Starts WebKitWebDriver on a display of its own, and waits until it answers. */
async function startDriver(port: number): Promise<ChildProcess> {
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/status`)
      .then((response) => response.ok)
      .catch(() => false)
  // A driver an earlier run left (that run killed) would answer in this one's place, with its sessions.
  if (await answers())
    throw new Error(
      `Port ${port} already answers WebDriver (a WebKitWebDriver a run left?): stop it, or set E2E_PORT_BASE`,
    )
  let output = ''
  const driver = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'], {
    detached: true,
  })
  driver.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  driver.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  // Its own process group outlives this one: stopped on exit too, whatever ends the run.
  process.once('exit', () => stopDriver(driver))
  const deadline = Date.now() + 30_000
  for (;;) {
    if (await answers()) return driver
    if (driver.exitCode !== null || Date.now() > deadline) {
      stopDriver(driver)
      throw new Error(`WebKitWebDriver did not start on port ${port}:\n${output}`)
    }
    await new Promise((done) => setTimeout(done, 200))
  }
}

function stopDriver(driver: ChildProcess) {
  try {
    if (driver.pid) process.kill(-driver.pid, 'SIGTERM')
  } catch {
    // Already gone.
  }
}

/** A MiniBrowser window; `args` are MiniBrowser's own options. */
function session(port: number, args: string[] = []): Promise<WebDriver> {
  return new Builder()
    .usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...args] },
    })
    .build()
}

function webkitPage(driver: WebDriver): EnginePage {
  const element = async (selector: string) => {
    const found = await driver.wait(becomes.elementLocated(By.css(selector)), 10_000).catch(async () => {
      throw new Error(`No element ${selector} on ${await driver.getCurrentUrl()}`)
    })
    // WebKit's WebDriver does not scroll an element into view before it clicks or types.
    await driver.executeScript('arguments[0].scrollIntoView({ block: "center", behavior: "instant" })', found)
    return found
  }
  return {
    open: async (url) => {
      await driver.get(url)
      // Seen once in a full run: WebKit's WebDriver answered while the window still showed
      // about:blank, and it stayed so. Each test starts on the document it opened, or says why not.
      const shown = () => driver.executeScript<string>('return location.href + " " + document.readyState')
      await driver
        .wait(async () => (await shown()) === `${url} complete`, 10_000)
        .catch(async () => {
          throw new Error(
            `Opened ${url}, but the window shows ${await driver.executeScript<string>(windowState, RELOADED_AT_KEY)}`,
          )
        })
    },
    run: (fn, ...args) => driver.executeScript(fn as (...a: unknown[]) => unknown, ...args) as never,
    click: async (selector) => {
      await (await element(selector)).click()
    },
    hover: async (selector) => {
      await driver
        .actions({ async: true })
        .move({ origin: await element(selector) })
        .perform()
    },
    type: async (selector, text) => {
      const field = await element(selector)
      await field.click()
      if (!text) return
      // A line break is the Enter key (WebKit drops a bare "\n").
      await field.sendKeys(...text.split('\n').flatMap((line, i) => (i === 0 ? [line] : [Key.ENTER, line])))
    },
    // Clicking an <option> selects it (WebDriver's element click), as choosing it from the list does.
    select: async (selector, value) => {
      await element(selector)
      await (await element(`${selector} option[value="${value}"]`)).click()
    },
    resize: async (width, height) => {
      // The window's size: its viewport is a little smaller (MiniBrowser's toolbar).
      await driver.manage().window().setRect({ width, height })
    },
  }
}

engineSmoke('WebKit', async (site) => {
  // WebKitWebDriver drives one window at a time: a second driver for the window without scripts.
  const drivers: ChildProcess[] = []
  const stopDrivers = () => {
    for (const driver of drivers) stopDriver(driver)
  }
  try {
    drivers.push(await startDriver(site.webDriverPort))
    const main = await session(site.webDriverPort)
    return {
      page: webkitPage(main),
      reportsResponseStatus: false,
      withoutJavaScript: async () => {
        drivers.push(await startDriver(site.webDriverPort + 1))
        // MiniBrowser's own setting: no script in a page runs (WebDriver's scripts still do).
        const plain = await session(site.webDriverPort + 1, ['--enable-javascript-markup=false'])
        return { ...webkitPage(plain), close: () => plain.quit() }
      },
      // WebKit's WebDriver cannot add a request header: the desk is opened through the stand-in
      // for Cloudflare Access, which adds the token to every request (global-setup.ts).
      operator: async () => ({ page: webkitPage(main), origin: site.operatorOrigin }),
      close: async () => {
        try {
          await main.quit()
        } finally {
          stopDrivers()
        }
      },
    }
  } catch (error) {
    stopDrivers()
    throw error
  }
})
