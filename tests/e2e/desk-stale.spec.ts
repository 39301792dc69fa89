import type { Page } from '@playwright/test'
import { enquiry, expect, test } from '../support/contact'
import { deliveredEnquiry, operator } from '../support/operator'
import { gotoHydrated, waitForHydration } from '../support/page'
import { SITE_ORIGIN } from '../support/servers'

// Two operators at once (docs/desk.md, "Moves on what the operator saw"): a move pressed on a page
// left open after another's change is refused, naming who changed what and when.
test.describe.configure({ mode: 'default', timeout: 180_000 })

const origin = SITE_ORIGIN
const panel = (page: Page) => page.getByRole('region', { name: 'Triage' })
const owner = (page: Page) => panel(page).getByTestId('triage-owner')

test('a stale take, assign and close are refused, naming the other operator’s move; the enquiry stays theirs', async ({
  browser,
  request,
}) => {
  const values = enquiry('desk-stale', { name: `Stale ${crypto.randomUUID().slice(0, 8)}` })
  const { id } = await deliveredEnquiry(request, values)
  const a = await operator(browser, { label: 'first' })
  const b = await operator(browser, { label: 'second' })
  const address = `${origin}/admin/enquiries/${id}`

  // A has the enquiry open three times over: each page shows it as nobody's.
  const pages: Page[] = []
  for (let n = 0; n < 3; n++) {
    const page = n === 0 ? a.page : await a.context.newPage()
    await gotoHydrated(page, address)
    await expect(owner(page)).toHaveText('Nobody yet')
    pages.push(page)
  }
  const [take, assign, close] = pages as [Page, Page, Page]

  // B takes it.
  const bPage = b.page
  await gotoHydrated(bPage, address)
  await panel(bPage).getByRole('button', { name: 'Take it' }).click()
  await expect(bPage.getByRole('status')).toHaveText('It is yours now.')
  await waitForHydration(bPage)

  // Each of A's moves on the pages that still say "Nobody yet" is refused, naming B's take. A
  // person acts in the tab in front of them: each is brought to the front first. A tab behind
  // another need not be drawn, and a page's code starts after its first paint
  // (app/document/paint-first.tsx).
  const refused = async (page: Page) => {
    await expect(page.getByRole('status')).toContainText('Nothing was changed')
    await expect(page.getByTestId('stale-move')).toHaveText(
      new RegExp(`^${b.email} took it at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`),
    )
    await expect(owner(page)).toHaveText(b.email)
    await waitForHydration(page)
  }
  await take.bringToFront()
  await panel(take).getByRole('button', { name: 'Take it' }).click()
  await refused(take)
  await assign.bringToFront()
  await panel(assign).getByLabel('Assign to').selectOption(a.email)
  await panel(assign).getByRole('button', { name: 'Assign' }).click()
  await refused(assign)
  await close.bringToFront()
  await panel(close).getByLabel('Outcome').selectOption('lost')
  await panel(close).getByRole('button', { name: 'Close' }).click()
  await refused(close)
  await expect(panel(close).getByTestId('triage-state')).toHaveText('Open')

  // B keeps the lead, and B's view says so.
  await bPage.bringToFront()
  await bPage.reload()
  await expect(owner(bPage)).toHaveText(`${b.email} (you)`)
  await expect(panel(bPage).getByTestId('triage-state')).toHaveText('Open')
  await a.context.close()
  await b.context.close()
})
