import type { APIRequestContext, Page } from '@playwright/test'
import { analyzeWcag } from '../support/axe'
import { type Enquiry, enquiry, expect, test, uniqueClientAddress } from '../support/contact'
import { executeSql, expectStored, type StoredEnquiry } from '../support/enquiries'
import { operator } from '../support/operator'
import { gotoHydrated, waitForHydration } from '../support/page'
import { SITE_ORIGIN, SITE_PORT } from '../support/servers'
import { stateDir } from '../support/site-server'

/**
 * Triage in the desk (docs/desk.md, "Triage") in a browser, on the main test site with the
 * stand-in Access team: operators signed in with tokens of their own, each test with operators
 * named only by it, so their "Mine" counts are theirs alone. What a browser adds: the buttons
 * pressed with JavaScript on a page that hydrates after each flash, the filter form and the back
 * button, the keyboard and axe. Each move's effect, by two operators, the overdue mark and the
 * CSV's columns are tests/worker/triage.test.ts's. Other tests' enquiries share the desk: each
 * test finds its own by a tag in their names.
 */
test.describe.configure({ mode: 'default', timeout: 180_000 })

const WAIT_MS = 60_000
const origin = SITE_ORIGIN
const persistTo = stateDir(SITE_PORT)
async function submit(request: APIRequestContext, values: Enquiry): Promise<StoredEnquiry> {
  const answer = await request.post(`${origin}/api/contact`, {
    form: { ...values, enquiry_key: `triage-${crypto.randomUUID()}` },
    headers: { Origin: origin, 'CF-Connecting-IP': uniqueClientAddress() },
  })
  expect(answer.status()).toBe(200)
  return expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
}

const row = (page: Page, name: string) => page.locator('tbody tr', { hasText: name })
const triagePanel = (page: Page) => page.getByRole('region', { name: 'Triage' })

/**
 * Expects an action's flash on the page its post led to (a new page, from the server's 303), then
 * waits for that page to hydrate, as a person reading the flash does before pressing the next
 * button. (A press in the moment the client code took over a page used to be lost: hydration
 * scrolled the page to its top under the pointer. app/router.tsx now leaves that scroll alone.)
 */
async function expectNotice(page: Page, text: string) {
  await expect(page.getByRole('status')).toHaveText(text)
  await waitForHydration(page)
}

/** Opens an enquiry's page; with JavaScript, waits until it has hydrated, as a person reading it first would. */
async function openEnquiry(page: Page, id: string, name: string, javaScript = true) {
  if (javaScript) await gotoHydrated(page, `${origin}/admin/enquiries/${id}`)
  else await page.goto(`${origin}/admin/enquiries/${id}`)
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

  await gotoHydrated(page, `${origin}/admin`)
  const counts = page.getByRole('region', { name: 'Triage' })
  await expect(counts.getByTestId('count-mine')).toHaveText('0')
  await expect(page.getByTestId('triage-reply-by')).toContainText('Reply within 24 weekday hours')

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

  for (const path of [`/admin/enquiries/${stored.id}`, '/admin', `/admin?owner=me&overdue=yes`]) {
    await gotoHydrated(page, `${origin}${path}`)
    const results = await analyzeWcag(page)
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      path,
    ).toEqual([])
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
