import type { Page } from '@playwright/test'

/** Goes to a path and waits until React has hydrated, so clicks are handled by the app. */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path)
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  return response
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
