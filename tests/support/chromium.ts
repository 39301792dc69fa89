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

/**
 * The Chromium to drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download.
 * Throws one line saying how to get one when none exists.
 */
export function resolveChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium']
  for (const candidate of candidates) {
    if (candidate && existsSync(candidate)) return candidate
  }
  try {
    const bundled = chromium.executablePath()
    if (bundled && existsSync(bundled)) return bundled
  } catch {
    // Playwright has no browser of its own here.
  }
  throw new Error(
    'No Chromium found: set CHROMIUM_PATH, or install one with `apt-get install -y chromium` or `npx playwright install chromium`.',
  )
}
