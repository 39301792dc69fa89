import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
import { type AccessKeys, accessKeysFrom, TEST_OPERATOR } from '../support/access-keys'
import { type Enquiry, enquiry, expect, postEnquiry, setScenario, test } from '../support/contact'
import { executeSql, expectStored, runCron, storedFrom } from '../support/enquiries'
import { gotoHydrated } from '../support/page'
import { ACCESS_KEY_FILE, SITE_ORIGIN, SITE_PORT, siteOutput } from '../support/servers'
import { jsonLogLines, stateDir } from '../support/site-server'

/**
 * The operator's desk: the audit trail of every action (on each enquiry and on /admin/activity,
 * kept when the enquiry is erased), requests by person (find, export as JSON, erase all), and the
 * desk's own shell. On the main test site, with the stand-in Access team (as in inbox.spec.ts).
 */
test.describe.configure({ mode: 'default', timeout: 180_000 })

const WAIT_MS = 60_000
const origin = SITE_ORIGIN
const persistTo = stateDir(SITE_PORT)
let keys: AccessKeys
let token: string

test.beforeAll(async () => {
  keys = await accessKeysFrom(ACCESS_KEY_FILE)
  token = await keys.sign({ expiresIn: 4 * 3600 })
})

const tokenHeader = () => ({ 'Cf-Access-Jwt-Assertion': token })

const submit = (request: APIRequestContext, values: Enquiry) => postEnquiry(request, origin, values, 'desk')

async function operatorPage(
  browser: Browser,
  options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...options, extraHTTPHeaders: tokenHeader(), reducedMotion: 'reduce' })
  return { context, page: await context.newPage() }
}

/** The enquiry's audit trail as its page shows it: one "action operator" string a line, oldest first. */
async function trailOf(page: Page, id: string): Promise<string[]> {
  await page.goto(`${origin}/admin/enquiries/${id}`)
  const items = page.getByTestId('audit-trail').getByRole('listitem')
  return (await items.allInnerTexts()).map((text) => text.replace(/\s+/g, ' '))
}

/** The activity page's rows about one enquiry id: "Action | Enquiry cell". */
async function activityAbout(page: Page, id: string): Promise<string[]> {
  await page.goto(`${origin}/admin/activity`)
  const rows = page.locator('tbody tr', { hasText: id })
  const texts: string[] = []
  for (const row of await rows.all()) {
    const cells = await row.getByRole('cell').allInnerTexts()
    texts.push(`${cells[2]} | ${cells[3]}`)
  }
  return texts
}

const letters = () =>
  Array.from({ length: 8 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('')

test('the audit trail: each action leaves a line on the enquiry and on the activity page, and the lines survive an erasure', async ({
  browser,
  request,
}) => {
  const values = enquiry('desk-audit', { name: `Audited ${crypto.randomUUID().slice(0, 8)}` })
  await setScenario(values.email, { kind: 'status', status: 503 })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'pending', 1, WAIT_MS)
  await setScenario(values.email, { kind: 'success' })

  const { context, page } = await operatorPage(browser)
  // Opening the page is the first line.
  expect(await trailOf(page, row.id)).toEqual([expect.stringMatching(new RegExp(`Opened ${TEST_OPERATOR}$`))])

  // Retry: a line, then the page it returns to (an open within a minute of it is not written again).
  await page.getByRole('button', { name: 'Retry delivery now' }).click()
  await expect(page.getByRole('status')).toContainText('Delivered now.')
  const afterRetry = await trailOf(page, row.id)
  expect(afterRetry).toHaveLength(2)
  expect(afterRetry[1]).toMatch(new RegExp(`Retried delivery ${TEST_OPERATOR} \\(was pending\\)$`))

  // Release: a held one (a Turnstile miss, say).
  await executeSql(
    origin,
    `UPDATE enquiries SET status = 'held', held_reason = 'turnstile_missing' WHERE id = '${row.id}'`,
  )
  await gotoHydrated(page, `${origin}/admin/enquiries/${row.id}`)
  await page.getByRole('button', { name: 'Release and deliver' }).click()
  await expect(page.getByRole('status')).toContainText('Delivered now.')
  expect((await trailOf(page, row.id)).at(-1)).toMatch(/Released .* \(was held\)$/)

  // The CSV export: a line with the filter, never the search text. Made by an operator of its own,
  // so that their newest line is this one while other tests act in the same inbox.
  const exporter = `desk-export-${crypto.randomUUID().slice(0, 6)}@aksharalabs.in`
  const csv = await request.get(`${origin}/admin/export.csv?q=${encodeURIComponent(values.name)}`, {
    headers: { 'Cf-Access-Jwt-Assertion': await keys.sign({ email: exporter, sub: crypto.randomUUID() }) },
  })
  expect(csv.status()).toBe(200)
  await page.goto(`${origin}/admin/activity`)
  const newest = page.locator('tbody tr', { hasText: exporter }).first()
  await expect(newest).toContainText('Exported CSV')
  await expect(newest).toContainText('status all, with a search')
  await expect(newest).not.toContainText(values.name)

  // Erase: the enquiry goes, its lines stay, with its id only.
  await page.goto(`${origin}/admin/erase/${row.id}`)
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  await expect(page).toHaveURL(`${origin}/admin?notice=erased`)
  expect(await storedFrom(persistTo, values.email)).toHaveLength(0)
  const about = await activityAbout(page, row.id)
  expect(about[0]).toBe(`Erased | ${row.id} (erased)`)
  expect(about.map((line) => line.split(' | ')[0])).toEqual(['Erased', 'Released', 'Retried delivery', 'Opened'])
  const activity = await page.content()
  for (const secret of [values.name, values.email, values.message.split('\n')[0] ?? ''])
    expect(activity).not.toContain(secret)

  // No operator can change or delete a line: there is no form on the page, and no action for it.
  await expect(page.locator('main form')).toHaveCount(0)
  const edit = await request.post(`${origin}/admin/actions`, {
    form: { action: 'erase-audit', id: row.id },
    headers: { ...tokenHeader(), Origin: origin },
    maxRedirects: 0,
  })
  expect(edit.status()).toBe(400)
  await context.close()
})

/** The audit lines of one operator, read straight from the test server's local D1 file (read-only). */
function auditLinesOf(operator: string): { at: string }[] {
  const dir = join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject')
  const file = readdirSync(dir).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite')
  const db = new DatabaseSync(join(dir, file as string), { readOnly: true })
  try {
    return db.prepare('SELECT at FROM audit_log WHERE operator = ? ORDER BY at').all(operator) as { at: string }[]
  } finally {
    db.close()
  }
}

test('the scheduled run deletes audit lines older than 400 days, and only those', async () => {
  const operator = `retention-${crypto.randomUUID().slice(0, 8)}@aksharalabs.in`
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
  await executeSql(
    origin,
    `INSERT INTO audit_log (at, operator, action) VALUES ('${daysAgo(401)}', '${operator}', 'open'), ('${daysAgo(399)}', '${operator}', 'open')`,
  )
  expect(auditLinesOf(operator)).toHaveLength(2)
  await runCron(origin)
  await expect.poll(() => auditLinesOf(operator).length, { timeout: WAIT_MS }).toBe(1)
  // The one kept is the younger.
  expect(Date.parse(auditLinesOf(operator)[0]?.at ?? '')).toBeGreaterThan(Date.now() - 400 * 86_400_000)
  await expect
    .poll(() =>
      jsonLogLines(siteOutput()).some((line) => line.event === 'audit_retention' && line.auditRetentionDays === 400),
    )
    .toBe(true)
})

test('bulk erasure of held enquiries is in the activity page, with its selection', async ({ browser, request }) => {
  const reason = `desk_${letters()}`
  const values = enquiry('desk-held', { name: `Held ${crypto.randomUUID().slice(0, 8)}` })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  await executeSql(origin, `UPDATE enquiries SET status = 'held', held_reason = '${reason}' WHERE id = '${row.id}'`)
  const { context, page } = await operatorPage(browser)
  await gotoHydrated(page, `${origin}/admin/erase-held?reason=${reason}`)
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  await expect(page.getByRole('status')).toContainText('held enquiries were erased')
  await page.goto(`${origin}/admin/activity`)
  const line = page.locator('tbody tr', { hasText: reason })
  await expect(line).toHaveCount(1)
  await expect(line).toContainText('Erased held enquiries')
  await expect(line).toContainText(TEST_OPERATOR)
  await context.close()
})

test('a request by person, without JavaScript: find by address (any case), export everything as JSON, then erase it all after a confirmation', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const email = `person-${tag}@example.com`
  const first = enquiry('desk-person', { email, name: `Person ${tag}`, message: `First message ${tag}` })
  const second = enquiry('desk-person', { email: email.toUpperCase(), name: `Person ${tag}`, message: `Second ${tag}` })
  const other = enquiry('desk-person-other', { name: `Other ${tag}` })
  await submit(request, first)
  await expectStored(persistTo, first.email, 'delivered', undefined, WAIT_MS)
  await submit(request, second)
  await expectStored(persistTo, second.email, 'delivered', undefined, WAIT_MS)
  await submit(request, other)
  await expectStored(persistTo, other.email, 'delivered', undefined, WAIT_MS)

  const { context, page } = await operatorPage(browser, { javaScriptEnabled: false })
  await page.goto(`${origin}/admin/person`)
  await page.getByLabel('E-mail address (exact)').fill(`  Person-${tag}@Example.com`)
  await page.getByRole('button', { name: 'Find' }).click()
  await expect(page.getByRole('heading', { level: 2, name: `2 enquiries from ${email}` })).toBeVisible()
  await expect(page.locator('tbody tr')).toHaveCount(2)
  await expect(page.getByTestId('outside-reach')).toContainText('company mailbox')
  await expect(page.getByTestId('outside-reach')).toContainText('form service')

  // Export: one JSON file with both enquiries, whole, and their delivery history. (Fetched from the
  // link's address with the token: a browser's download does not carry the stand-in Access header.)
  const href = await page.getByRole('link', { name: 'Download all as JSON' }).getAttribute('href')
  expect(href).toBe(`/admin/person/export.json?email=${encodeURIComponent(email)}`)
  const exported = await request.get(`${origin}${href}`, { headers: tokenHeader() })
  expect(exported.status()).toBe(200)
  expect(exported.headers()['content-type']).toBe('application/json; charset=utf-8')
  expect(exported.headers()['content-disposition']).toMatch(/^attachment; filename="person-export-[\d-]+\.json"$/)
  expect(exported.headers()['cache-control']).toContain('no-store')
  const data = (await exported.json()) as {
    email: string
    enquiries: { id: string; email: string; message: string; attempts: { outcome: string }[] }[]
  }
  expect(data.email).toBe(email)
  expect(data.enquiries.map((row) => row.message).sort()).toEqual([first.message, second.message].sort())
  expect(data.enquiries.map((row) => row.email).sort()).toEqual([second.email, first.email].sort())
  for (const row of data.enquiries) expect(row.attempts.map((a) => a.outcome)).toEqual(['delivered'])
  expect(JSON.stringify(data)).not.toContain(other.email)
  const ids = data.enquiries.map((row) => row.id)

  // Erase all: a confirmation page, then one form post.
  await page.getByRole('link', { name: 'Erase all…' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Erase everything held for ${email}?`)
  await expect(page.getByTestId('person-erase-list').getByRole('listitem')).toHaveCount(2)
  const posted = page.waitForResponse((r) => r.url().endsWith('/admin/actions'))
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  expect((await posted).status()).toBe(303)
  await expect(page.getByRole('status')).toContainText('were erased')
  await expect(page.getByRole('heading', { level: 2, name: `Nothing held for ${email}` })).toBeVisible()
  expect(await storedFrom(persistTo, first.email)).toHaveLength(0)
  expect(await storedFrom(persistTo, second.email)).toHaveLength(0)
  expect(await storedFrom(persistTo, other.email)).toHaveLength(1)

  // Both are in the audit trail, one line per enquiry, with no address.
  for (const id of ids) {
    const about = await activityAbout(page, id)
    expect(about.map((line) => line.split(' | ')[0])).toEqual([
      'Erased a person’s data',
      'Exported a person’s data',
      'Looked up a person',
    ])
  }
  expect(await page.content()).not.toContain(email)
  await context.close()
})

test('the desk’s shell: its own header with the sections and the operator, none of the brochure’s; dense at 1366 × 768, usable at 375 px', async ({
  browser,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const rows = Array.from(
    { length: 26 },
    (_, i) =>
      `('desk-${tag}-${i}', 'desk-${tag}-${i}', '2026-01-02T00:00:${String(i).padStart(2, '0')}.000Z', 'Dense ${tag} ${i}', 'dense@example.com', 'Company', 'general', 'x', 'handled')`,
  )
  await executeSql(
    origin,
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status) VALUES ${rows.join(', ')}`,
  )

  const { context, page } = await operatorPage(browser, { viewport: { width: 1366, height: 768 } })
  for (const path of ['/admin', '/admin/activity', '/admin/person', `/admin/enquiries/desk-${tag}-0`]) {
    await gotoHydrated(page, `${origin}${path}`)
    const desk = page.getByRole('navigation', { name: 'Desk' })
    await expect(desk.getByRole('link')).toHaveText(['Enquiries', 'Activity', 'Requests by person', 'Set-up'])
    await expect(page.getByTestId('desk-operator')).toHaveText(TEST_OPERATOR)
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0)
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
    await expect(page.getByRole('contentinfo')).toHaveCount(0)
    await expect(page.getByTestId('decorative-background')).toHaveCount(0)
    await expect(page.getByRole('main')).toHaveCount(1)
  }
  await gotoHydrated(page, `${origin}/admin/activity`)
  await expect(page.getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page')

  // 25 rows of the inbox fit a laptop screen (768 px high, less the browser's own bar).
  await gotoHydrated(page, `${origin}/admin?q=Dense%20${tag}`)
  const list = page.locator('tbody tr')
  await expect(list).toHaveCount(25)
  const top = (await list.first().boundingBox())?.y ?? 0
  const last = await list.nth(24).boundingBox()
  const height = (last?.y ?? 0) + (last?.height ?? 0) - top
  console.log(`25 inbox rows at 1366 × 768: ${Math.round(height)} px`)
  expect(height).toBeLessThanOrEqual(640)
  await context.close()

  // At 375 px: nothing wider than the screen, and the sections within reach.
  const narrow = await operatorPage(browser, { viewport: { width: 375, height: 740 } })
  for (const path of ['/admin', '/admin/activity', '/admin/person', `/admin/enquiries/desk-${tag}-0`]) {
    await gotoHydrated(narrow.page, `${origin}${path}`)
    const width = await narrow.page.evaluate(() => document.documentElement.scrollWidth)
    expect(width, path).toBeLessThanOrEqual(375)
    for (const name of ['Enquiries', 'Activity', 'Requests by person', 'Set-up'])
      await expect(narrow.page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name })).toBeInViewport()
  }
  await narrow.context.close()
})

test('the desk’s new pages have no WCAG 2.2 A/AA violations and work from the keyboard alone', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const values = enquiry('desk-axe', { email: `axe-${tag}@example.com`, name: `Axe ${tag}` })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  const { context, page } = await operatorPage(browser)
  for (const path of [
    '/admin/activity',
    '/admin/person',
    `/admin/person?email=${encodeURIComponent(values.email)}`,
    '/admin/person?email=not-an-address',
    `/admin/person/erase?email=${encodeURIComponent(values.email)}`,
    `/admin/enquiries/${row.id}`,
  ]) {
    await gotoHydrated(page, `${origin}${path}`)
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze()
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      path,
    ).toEqual([])
  }

  // Keyboard only: the skip link, then the desk's sections; a request by person from the search box to the erasure's confirmation.
  await gotoHydrated(page, `${origin}/admin`)
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Activity' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Requests by person' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Requests by person' })).toBeVisible()
  await page.getByLabel('E-mail address (exact)').focus()
  await page.keyboard.type(values.email)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 2, name: `1 enquiry from ${values.email}` })).toBeVisible()
  await page.getByRole('link', { name: 'Erase all…' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Erase everything held for ${values.email}?`)
  await page.getByRole('link', { name: 'Cancel' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 2, name: `1 enquiry from ${values.email}` })).toBeVisible()
  await context.close()
})
