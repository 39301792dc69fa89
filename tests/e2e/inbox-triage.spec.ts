import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
import { replyBy } from '../../app/ledger/triage'
import { type AccessKeys, accessKeysFrom } from '../support/access-keys'
import { type Enquiry, enquiry, expect, test, uniqueClientAddress } from '../support/contact'
import { csvCells } from '../support/csv'
import { executeSql, expectStored, type StoredEnquiry } from '../support/enquiries'
import { gotoHydrated, waitForHydration } from '../support/page'
import { ACCESS_KEY_FILE, SITE_ORIGIN, SITE_PORT, siteOutput } from '../support/servers'
import { jsonLogLines, stateDir } from '../support/site-server'

/**
 * Triage in the inbox (docs/inbox.md, "Triage"), on the main test site with the stand-in Access
 * team: operators signed in with tokens of their own, each test with operators named only by it, so
 * their "Mine" counts are theirs alone. Other tests' enquiries share the inbox: each test finds its
 * own by a tag in their names.
 */
test.describe.configure({ mode: 'default', timeout: 180_000 })

const WAIT_MS = 60_000
const origin = SITE_ORIGIN
const persistTo = stateDir(SITE_PORT)
let keys: AccessKeys

test.beforeAll(async () => {
  keys = await accessKeysFrom(ACCESS_KEY_FILE)
})

interface Operator {
  email: string
  context: BrowserContext
  page: Page
}

/** A browser signed in as an operator of its own (a fresh Access identity). */
async function operator(browser: Browser, label: string, javaScriptEnabled = true): Promise<Operator> {
  const email = `${label}-${crypto.randomUUID().slice(0, 6)}@aksharalabs.in`
  const token = await keys.sign({ email, sub: crypto.randomUUID(), expiresIn: 4 * 3600 })
  const context = await browser.newContext({
    javaScriptEnabled,
    extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': token },
    reducedMotion: 'reduce',
  })
  return { email, context, page: await context.newPage() }
}

async function submit(request: APIRequestContext, values: Enquiry): Promise<StoredEnquiry> {
  const answer = await request.post(`${origin}/api/contact`, {
    form: { ...values, enquiry_key: `triage-${crypto.randomUUID()}` },
    headers: { Origin: origin, 'CF-Connecting-IP': uniqueClientAddress() },
  })
  expect(answer.status()).toBe(200)
  return expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
}

/** A time as the inbox shows it (desk-ui.tsx formatTime): `2026-11-23 12:00 UTC`. */
const shown = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

const row = (page: Page, name: string) => page.locator('tbody tr', { hasText: name })
const triagePanel = (page: Page) => page.getByRole('region', { name: 'Triage' })

/**
 * Expects an action's notice on the page its post led to (a new page, from the server's 303), then
 * waits for that page to hydrate, as a person reading the notice does before pressing the next
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

test('two operators take, note, hand over and close an enquiry; the list shows each step', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const values = enquiry('triage-two', { name: `Two ${tag}` })
  const stored = await submit(request, values)
  const asha = await operator(browser, 'asha')
  // The second operator works without JavaScript: every action is a plain form post.
  const bharat = await operator(browser, 'bharat', false)

  // Nobody has opened it: new, and nobody's.
  await asha.page.goto(`${origin}/admin?q=${tag}`)
  await expect(row(asha.page, values.name).getByTestId('triage-state')).toHaveText('New')
  await expect(row(asha.page, values.name).getByTestId('list-owner')).toHaveText('nobody')

  // Opening it makes it open; Asha takes it.
  await openEnquiry(asha.page, stored.id, values.name)
  const panel = triagePanel(asha.page)
  await expect(panel.getByTestId('triage-state')).toHaveText('Open')
  await expect(panel.getByTestId('triage-owner')).toHaveText('Nobody yet')
  await panel.getByRole('button', { name: 'Take it' }).click()
  await expectNotice(asha.page, 'It is yours now.')
  await expect(panel.getByTestId('triage-owner')).toHaveText(`${asha.email} (you)`)
  await expect(panel.getByRole('button', { name: 'Take it' })).toHaveCount(0)

  // Bharat sees it is Asha's, adds a note, and takes it over (no JavaScript: 303 back to the page).
  await openEnquiry(bharat.page, stored.id, values.name, false)
  const his = triagePanel(bharat.page)
  await expect(his.getByTestId('triage-owner')).toHaveText(asha.email)
  await his.getByLabel('Note (only operators see it)').fill('Called them.\nThey want a quote by Friday.')
  const posted = bharat.page.waitForResponse((r) => r.url().endsWith('/admin/actions'))
  await his.getByRole('button', { name: 'Add note' }).click()
  expect((await posted).status()).toBe(303)
  await expect(bharat.page.getByRole('status')).toHaveText('Note added.')
  const note = his.getByTestId('note')
  await expect(note).toHaveCount(1)
  await expect(note).toContainText(bharat.email)
  await expect(note).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
  await expect(note).toContainText('They want a quote by Friday.')
  await his.getByRole('button', { name: 'Take it' }).click()
  await expect(his.getByTestId('triage-owner')).toHaveText(`${bharat.email} (you)`)
  await his.getByRole('button', { name: 'Mark replied' }).click()
  await expect(bharat.page.getByRole('status')).toHaveText('Marked replied.')

  // Bharat hands it back to Asha: both have acted, so both are on the list of operators.
  await his.getByLabel('Assign to').selectOption(asha.email)
  await his.getByRole('button', { name: 'Assign' }).click()
  await expect(bharat.page.getByRole('status')).toHaveText('Assigned.')
  await expect(his.getByTestId('triage-owner')).toHaveText(asha.email)

  // Asha closes it as won; she sees Bharat's note.
  await asha.page.reload()
  await waitForHydration(asha.page)
  await expect(panel.getByTestId('note')).toContainText('Called them.')
  await expect(panel.getByTestId('triage-state')).toHaveText('Replied')
  await panel.getByLabel('Outcome').selectOption('won')
  await panel.getByRole('button', { name: 'Close' }).click()
  await expectNotice(asha.page, 'Closed.')
  await expect(panel.getByTestId('triage-state')).toHaveText('Closed: Won')
  // Closed: no taking or assigning until it is reopened.
  await expect(panel.getByRole('button', { name: 'Take it' })).toHaveCount(0)
  await expect(panel.getByRole('button', { name: 'Reopen' })).toBeVisible()

  // The CSV export carries the triage as the page shows it: Closed, Won, and whose it is.
  const csv = (await (await asha.context.request.get(`${origin}/admin/export.csv?q=${tag}`)).text()).replace(
    /^\uFEFF/,
    '',
  )
  const header = csvCells(csv.slice(0, csv.indexOf('\r\n')))
  const at = header.indexOf('Triage')
  expect(header.slice(at, at + 3)).toEqual(['Triage', 'Outcome', 'Owner'])
  const rows = csvCells(csv)
  expect(rows).toHaveLength(header.length * 2)
  expect(rows.slice(header.length + at, header.length + at + 3)).toEqual(['Closed', 'Won', asha.email])

  // A take posted anyway is refused and changes nothing.
  const refused = await bharat.context.request.post(`${origin}/admin/actions`, {
    form: { action: 'triage-take', id: stored.id },
    headers: { Origin: origin },
    maxRedirects: 0,
  })
  expect(refused.headers().location).toBe(`/admin/enquiries/${stored.id}?notice=triage-refused`)
  // Reopened, it can be assigned again, but only to an operator.
  const reopened = await asha.context.request.post(`${origin}/admin/actions`, {
    form: { action: 'triage-state', id: stored.id, state: 'open' },
    headers: { Origin: origin },
    maxRedirects: 0,
  })
  expect(reopened.headers().location).toBe(`/admin/enquiries/${stored.id}?notice=triage-open`)
  const unknown = await asha.context.request.post(`${origin}/admin/actions`, {
    form: { action: 'triage-assign', id: stored.id, owner: 'someone@elsewhere.example' },
    headers: { Origin: origin },
    maxRedirects: 0,
  })
  expect(unknown.headers().location).toBe(`/admin/enquiries/${stored.id}?notice=triage-unknown-operator`)
  // A cross-site post is refused, as for every inbox action.
  const crossSite = await asha.context.request.post(`${origin}/admin/actions`, {
    form: { action: 'triage-note', id: stored.id, text: 'from elsewhere' },
    headers: { Origin: 'https://evil.example' },
    maxRedirects: 0,
  })
  expect(crossSite.status()).toBe(403)
  await asha.page.reload()
  await waitForHydration(asha.page)
  await expect(panel.getByTestId('triage-state')).toHaveText('Open')
  await expect(panel.getByTestId('note')).toHaveCount(1)

  // Each action's log line names the operator by Access's ID, never a note's text or an e-mail.
  const lines = jsonLogLines(siteOutput()).filter(
    (line) => line.event === 'admin' && line.enquiryId === stored.id && String(line.action).startsWith('triage-'),
  )
  expect(lines.map((line) => line.result)).toEqual(
    expect.arrayContaining(['triage-taken', 'triage-noted', 'triage-replied', 'triage-assigned', 'triage-closed']),
  )
  const text = JSON.stringify(lines)
  for (const secret of ['They want a quote', asha.email, bharat.email]) expect(text).not.toContain(secret)

  await asha.context.close()
  await bharat.context.close()
})

test('filters and counts: state, owner (me, nobody) and overdue, as plain links the back button keeps', async ({
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
  const me = await operator(browser, 'filters')
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

  // Mine counts open work only: one. Its link lists it.
  await page.goto(`${origin}/admin`)
  await expect(counts.getByTestId('count-mine')).toHaveText('1')
  await counts.getByRole('link', { name: /^Mine/ }).click()
  await expect(page).toHaveURL(`${origin}/admin?state=active&owner=me`)
  await expect(page.getByTestId('list-count')).toHaveText('1–1 of 1')
  await expect(row(page, first.values.name)).toHaveCount(1)
  await expect(counts.getByRole('link', { name: /^Mine/ })).toHaveAttribute('aria-current', 'page')

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

  // New: the one nobody opened.
  await page.goto(`${origin}/admin?q=${tag}&state=new`)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, third.values.name)).toHaveCount(1)
  // Paging links and the CSV keep the triage filter.
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', /state=new/)
  await me.context.close()
})

test('the overdue mark: past its reply-by, with words, in the list, the filter, the count and the page; gone once replied', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const late = enquiry('triage-late', { name: `Late ${tag}` })
  const fresh = enquiry('triage-fresh', { name: `Fresh ${tag}` })
  const lateRow = await submit(request, late)
  await submit(request, fresh)
  // Received ten days ago (through the test door to the database), with no reply-by written yet:
  // the inbox writes it from the time received, as for every new enquiry.
  const receivedAt = new Date(Date.now() - 10 * 86_400_000).toISOString()
  await executeSql(
    origin,
    `UPDATE enquiries SET received_at = '${receivedAt}', reply_by = NULL WHERE id = '${lateRow.id}'`,
  )
  const { page, context } = await operator(browser, 'overdue')

  await page.goto(`${origin}/admin?q=${tag}`)
  await expect(row(page, late.name).getByTestId('overdue')).toHaveText('! Overdue')
  await expect(row(page, fresh.name).getByTestId('overdue')).toHaveCount(0)
  await expect(row(page, fresh.name).getByTestId('triage-state')).toHaveText('New')

  // The overdue filter and count.
  await page.getByLabel('Overdue only').check()
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/overdue=yes/)
  await expect(page.locator('tbody tr')).toHaveCount(1)
  await expect(row(page, late.name)).toHaveCount(1)
  // Written as the inbox writes counts, with a thousands separator (1,036) once there are many.
  const overdueCount = Number((await page.getByTestId('count-overdue').textContent())?.replaceAll(',', ''))
  expect(overdueCount).toBeGreaterThanOrEqual(1)
  await page.getByRole('link', { name: /^Overdue/ }).click()
  await expect(page).toHaveURL(`${origin}/admin?overdue=yes`)
  await expect(page.getByTestId('list-count')).toContainText(/of \d+/)

  // Its page: the reply-by time (one business day after it arrived) and the mark.
  await openEnquiry(page, lateRow.id, late.name)
  const when = triagePanel(page).getByTestId('triage-reply-by-time')
  await expect(when).toContainText(shown(replyBy(receivedAt, 24)))
  await expect(when.getByTestId('overdue')).toHaveText('! Overdue')
  // Opened, it is still overdue; replied, it is not.
  await triagePanel(page).getByRole('button', { name: 'Mark replied' }).click()
  await expectNotice(page, 'Marked replied.')
  await expect(when.getByTestId('overdue')).toHaveCount(0)
  await page.goto(`${origin}/admin?q=${tag}&overdue=yes`)
  await expect(page.getByTestId('list-count')).toHaveText('No enquiries.')
  await context.close()
})

test('the triage parts have no WCAG 2.2 A/AA violations and work from the keyboard', async ({ browser, request }) => {
  const values = enquiry('triage-axe', { name: `Axe ${crypto.randomUUID().slice(0, 8)}` })
  const stored = await submit(request, values)
  await executeSql(origin, `UPDATE enquiries SET reply_by = '2000-01-03T00:00:00.000Z' WHERE id = '${stored.id}'`)
  const { page, context } = await operator(browser, 'keys')

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
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze()
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
