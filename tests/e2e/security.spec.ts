// No page reports a CSP violation or logs a console problem; the headers: tests/worker/headers.test.ts.
import { expect, type Page, test } from '@playwright/test'
import { collectProblems, gotoHydrated } from '../support/page'
import { PAGES } from '../support/routes'

/** Records every CSP violation the page reports, from before its first script runs. */
async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      )
    })
  })
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

test.describe('with the motion a visitor sees by default', () => {
  test.use({ reducedMotion: 'no-preference' })

  test('no page reports a Content-Security-Policy violation or logs a console error, warning or hydration mismatch, with or without navigation', async ({
    page,
  }) => {
    // Twelve full page loads, each waited on until hydrated (which starts after its first paint).
    test.slow()
    const violations = await recordCspViolations(page)
    const problems = collectProblems(page)
    for (const { path } of PAGES) await gotoHydrated(page, path)
    // Client-side navigation too: the page fades in again.
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL('/about')
    await expect(page.locator('main > div')).toHaveClass(/animate-page-in/)
    await nav.getByRole('link', { name: 'Services' }).click()
    await expect(page).toHaveURL('/services')
    await nav.getByRole('link', { name: 'Contact' }).click()
    await expect(page).toHaveURL('/contact')
    expect(violations).toEqual([])
    expect(problems).toEqual([])
  })
})
