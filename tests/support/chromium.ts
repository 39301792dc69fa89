import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

/** Flags that keep Chromium quiet on a machine with no internet. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Debian's Chromium headless shell (package `chromium-headless-shell`), the same build as /usr/bin/chromium. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'

/**
 * The Chromium to drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download.
 * With `headlessShell` (the browser suite), Debian's headless shell comes before /usr/bin/chromium:
 * Chromium's old headless mode as a program of its own, the same Blink and V8 without the browser's
 * windowing and UI layers, which Playwright itself runs headless tests in when it brings its own
 * browsers (microsoft/playwright#33566). The suite's pages take a third less CPU in it. Lighthouse,
 * the screenshots and the images stay on the full browser, whose figures and pictures a visitor's
 * Chrome matches. Throws one line saying how to get one when none exists.
 */
export function resolveChromium(
  { headlessShell = false }: { headlessShell?: boolean } = {},
  exists: (path: string) => boolean = existsSync,
  env: Record<string, string | undefined> = process.env,
): string {
  const candidates = [env.CHROMIUM_PATH, headlessShell ? HEADLESS_SHELL : undefined, '/usr/bin/chromium']
  for (const candidate of candidates) {
    if (candidate && exists(candidate)) return candidate
  }
  try {
    const bundled = chromium.executablePath()
    if (bundled && exists(bundled)) return bundled
  } catch {
    // Playwright has no browser of its own here.
  }
  throw new Error(
    'No Chromium found: set CHROMIUM_PATH, or install one with `apt-get install -y chromium` or `npx playwright install chromium`.',
  )
}
