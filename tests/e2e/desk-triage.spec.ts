import type { Page } from '@playwright/test'
import { analyzeWcag } from '../support/axe'
import { enquiry, expect, test } from '../support/contact'
import { executeSql } from '../support/enquiries'
import { operator, deliveredEnquiry as submit } from '../support/operator'
import { gotoHydrated, waitForHydration } from '../support/page'
import { SITE_ORIGIN } from '../support/servers'

// Triage in a browser: buttons pressed with JavaScript, the filter form, Back, keyboard, axe; the
// moves' effects are tests/worker/triage.test.ts's. Operators of each test's own keep "Mine" its own.
test.describe.configure({ mode: 'default', timeout: 180_000 })

const origin = SITE_ORIGIN

const row = (page: Page, name: string) => page.locator('tbody tr', { hasText: name })
const triagePanel = (page: Page) => page.getByRole('region', { name: 'Triage' })

/** Expects an action's flash on the page its 303 led to, then waits for it to hydrate, as a reader does. */
async function expectNotice(page: Page, text: string) {
  await expect(page.getByRole('status')).toHaveText(text)
  await waitForHydration(page)
}

async function openEnquiry(page: Page, id: string, name: string) {
  await gotoHydrated(page, `${origin}/admin/enquiries/${id}`)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

test('the filter form: state and owner with the search, in one address the back button keeps (the counts: tests/worker/triage.test.ts)', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const [first, second, third] = await Promise.all(
    ['One', 'Two', 'Three'].map(async (word) => {
      const values = enquiry('triage-filters', { name: `${word} ${tag}` })
      return { values, stored: await submit(request, values) }
    }),
  )
  if (!first || !second || !third) throw new Error('three enquiries')
  const me = await operator(browser, { label: 'filters' })
  const { page } = me

  // Take two, close one of them.
  for (const { values, stored } of [first, second]) {
    await openEnquiry(page, stored.id, values.name)
    await triagePanel(page).getByRole('button', { name: 'Take it' }).click()
    await expectNotice(page, 'It is yours now.')
  }
  await triagePanel(page).getByLabel('Outcome').selectOption('not_a_fit')
  await triagePanel(page).getByRole('button', { name: 'Close' }).click()
  await expect(triagePanel(page).getByTestId('triage-state')).toHaveText('Closed: Not a fit')

  // The filter form: state and owner with the search, in one address.
  await page.goto(`${origin}/admin?q=${tag}`)
  await expect(page.locator('tbody tr')).toHaveCount(3)
  await page.getByLabel('Triage state').selectOption('closed')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/state=closed/)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, second.values.name).getByTestId('triage-state')).toHaveText('Closed: Not a fit')
  await page.getByLabel('Triage state').selectOption('')
  await page.getByLabel('Owner').selectOption('none')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, third.values.name).getByTestId('list-owner')).toHaveText('nobody')
  await page.getByLabel('Owner').selectOption('me')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page.locator('tbody tr')).toHaveCount(2)
  await expect(row(page, first.values.name).getByTestId('list-owner')).toHaveText('you')

  // The back button returns to the previous filter.
  await page.goBack()
  await expect(page).toHaveURL(/owner=none/)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, third.values.name)).toHaveCount(1)

  await me.context.close()
})

test('the triage parts have no WCAG 2.2 A/AA violations and work from the keyboard', async ({ browser, request }) => {
  const values = enquiry('triage-axe', { name: `Axe ${crypto.randomUUID().slice(0, 8)}` })
  const stored = await submit(request, values)
  await executeSql(origin, `UPDATE enquiries SET reply_by = '2000-01-03T00:00:00.000Z' WHERE id = '${stored.id}'`)
  const { page, context } = await operator(browser, { label: 'keys' })

  // From the keyboard only: take it, write a note, close it.
  await gotoHydrated(page, `${origin}/admin/enquiries/${stored.id}`)
  await triagePanel(page).getByRole('button', { name: 'Take it' }).focus()
  await page.keyboard.press('Enter')
  await expectNotice(page, 'It is yours now.')
  await triagePanel(page).getByLabel('Note (only operators see it)').focus()
  await page.keyboard.type('Sent the brochure.')
  await page.keyboard.press('Tab')
  await expect(triagePanel(page).getByRole('button', { name: 'Add note' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expectNotice(page, 'Note added.')
  await expect(triagePanel(page).getByTestId('note')).toContainText('Sent the brochure.')

  for (const path of [`/admin/enquiries/${stored.id}`, `/admin?owner=me&overdue=yes`]) {
    await gotoHydrated(page, `${origin}${path}`)
    expect(await analyzeWcag(page), path).toEqual([])
  }
  // The overdue mark is on this list, and the count links answer to Enter.
  await expect(row(page, values.name).getByTestId('overdue')).toBeVisible()
  await page.getByRole('link', { name: /^Unassigned/ }).focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(`${origin}/admin?state=active&owner=none`)

  await gotoHydrated(page, `${origin}/admin/enquiries/${stored.id}`)
  await triagePanel(page).getByLabel('Outcome').focus()
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await expect(triagePanel(page).getByTestId('triage-state')).toHaveText('Closed: Spam')
  await context.close()
})
