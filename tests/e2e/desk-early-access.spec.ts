import { analyzeWcag } from '../support/axe'
import { expect, test } from '../support/contact'
import { executeSql } from '../support/enquiries'
import { operator } from '../support/operator'
import { gotoHydrated } from '../support/page'
import { SITE_ORIGIN } from '../support/servers'
import { smallTargets } from '../support/wcag-layout'

// The desk's Early access page at a laptop's and a phone's width, with axe (the rest:
// tests/worker/early-access-desk.test.ts).
test('the Early access page at 1280 and 375 px: its table, cards on a phone, nothing sideways, axe clean', async ({
  browser,
}) => {
  const tag = crypto.randomUUID().replaceAll('-', '')
  const long = `someone.with.a.long-address-${tag.slice(0, 8)}@accounts.subsidiary-company.example`
  const now = new Date().toISOString()
  await executeSql(
    SITE_ORIGIN,
    `INSERT INTO early_access (id, email, address_key, state, consent_version, signed_up_at, confirmed_at)
     VALUES ('ea-${tag}', '${long}', '${long}', 'confirmed', 'v1', '${now}', '${now}')`,
  )
  const { context, page } = await operator(browser, { viewport: { width: 1280, height: 800 } })
  await gotoHydrated(page, `${SITE_ORIGIN}/admin/early-access`)
  const row = page.locator(`tr[data-entry="ea-${tag}"]`)
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 740 })
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Early access')
    await expect(page.getByRole('link', { name: 'Early access', exact: true })).toHaveAttribute('aria-current', 'page')
    await expect(row.locator('td[data-label="State"]')).toContainText('Confirmed')
    await expect(page.getByRole('link', { name: 'Export confirmed as CSV' })).toBeVisible()
    const past = await page.evaluate(
      () =>
        [...document.querySelectorAll('main *')].filter(
          (element) => element.getBoundingClientRect().right > innerWidth + 0.5,
        ).length,
    )
    expect(past, `${width} px`).toBe(0)
    expect(await analyzeWcag(page)).toEqual([])
  }
  // A card on a phone, and targets big enough.
  await expect(row).toHaveCSS('display', 'flex')
  expect(await smallTargets(page)).toEqual([])
  await context.close()
})
