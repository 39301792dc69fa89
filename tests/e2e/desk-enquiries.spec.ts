import type { Page } from '@playwright/test'
import { TEST_OPERATOR } from '../support/access-keys'
import { analyzeWcag } from '../support/axe'
import { enquiry, expect, test } from '../support/contact'
import { executeSql, expectStored } from '../support/enquiries'
import { deliveredEnquiry, operator } from '../support/operator'
import { gotoHydrated, waitForHydration } from '../support/page'
import { SITE_ORIGIN, SITE_PORT } from '../support/servers'
import { stateDir } from '../support/site-server'

// The desk's list in a browser: the search and filter forms, hydration with the search as typed, a
// button pressed with JavaScript, keyboard, axe. What the Worker answers: tests/worker/desk-*.test.ts.
test.describe.configure({ mode: 'default', timeout: 120_000 })

/** How long a test waits for the site to store or deliver an enquiry, on a busy machine. */
const WAIT_MS = 60_000
const origin = SITE_ORIGIN
const persistTo = stateDir(SITE_PORT)

async function openEnquiry(page: Page, name: string) {
  await page.goto(`${origin}/admin?q=${encodeURIComponent(name)}`)
  await page.getByRole('link', { name, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

test('search and filter by the forms; a search that looks like a number stays as typed once the page hydrates', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const first = enquiry('desk-list', { name: `Asha ${tag}`, company: `Rao ${tag} Textiles` })
  const second = enquiry('desk-list', { name: `Bharat ${tag}`, message: `Please call.\nWe have 12 sites. ${tag}` })
  await deliveredEnquiry(request, first)
  await deliveredEnquiry(request, second)

  const { context, page } = await operator(browser)
  await gotoHydrated(page, `${origin}/admin`)
  await expect(page.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeVisible()

  // Search by company, then by name; newest first.
  await page.getByLabel('Name, e-mail or company').fill(tag)
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`))
  const names = page.locator('tbody tr td:nth-child(2)')
  await expect(names).toHaveText([second.name, first.name])
  await page.getByLabel('Status').selectOption('failed')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page.getByTestId('list-count')).toHaveText('No enquiries.')

  // A search that looks like a number is served as sent, and stays as typed once the page hydrates.
  const answer = await page.goto(`${origin}/admin?q=12345678`)
  expect(answer?.request().redirectedFrom()).toBeNull()
  await waitForHydration(page)
  await expect(page).toHaveURL(`${origin}/admin?q=12345678`)
  await expect(page.getByLabel('Name, e-mail or company')).toHaveValue('12345678')

  await context.close()
})

test('an action with JavaScript: Mark handled shows its flash and the enquiry as handled', async ({
  browser,
  request,
}) => {
  const values = enquiry('desk-handled', { name: `Handled ${crypto.randomUUID().slice(0, 8)}` })
  await deliveredEnquiry(request, values)
  const { context, page } = await operator(browser)
  await openEnquiry(page, values.name)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Mark handled' }).click()
  await expect(page.getByRole('status')).toContainText('Marked handled')
  await expect(page.getByText(`by ${TEST_OPERATOR}`)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Mark handled' })).toHaveCount(0)
  await expectStored(persistTo, values.email, 'handled', undefined, WAIT_MS)
  await context.close()
})

test('the desk pages, the held view and the sources have no WCAG 2.2 A/AA violations; the list is keyboard-usable', async ({
  browser,
  request,
}) => {
  const values = enquiry('desk-axe', { name: `Axe ${crypto.randomUUID().slice(0, 8)}` })
  const row = await deliveredEnquiry(request, values)
  // A held one of this test's own, so the held view and its bulk erasure's confirmation have a row.
  const held = `axe-held-${crypto.randomUUID().slice(0, 8)}`
  const day = new Date(Date.now() - 2 * 86_400_000).toISOString()
  await executeSql(
    origin,
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, held_reason) VALUES ('${held}', '${held}', '${day}', 'Held ${held}', '${held}@example.com', '', 'general', 'spam', 'held', 'turnstile_invalid')`,
  )
  const { context, page } = await operator(browser)
  for (const path of [
    '/admin',
    `/admin/enquiries/${row.id}`,
    `/admin/erase/${row.id}`,
    '/admin?status=held',
    `/admin/erase-held?day=${day.slice(0, 10)}`,
    '/admin/sources',
  ]) {
    await gotoHydrated(page, `${origin}${path}`)
    expect(await analyzeWcag(page), path).toEqual([])
  }
  // From the search box, the keyboard reaches the filter's button.
  await gotoHydrated(page, `${origin}/admin`)
  await page.getByLabel('Name, e-mail or company').focus()
  await page.keyboard.type(values.name)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/q=Axe/)
  await page.getByRole('link', { name: values.name, exact: true }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: values.name })).toBeVisible()
  await context.close()
})
