import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
import { type AccessKeys, accessKeysFrom, TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'
import { type Enquiry, enquiry, expect, postEnquiry, receivedFrom, setScenario, test } from '../support/contact'
import { executeSql, expectStored, runCron, storedFrom } from '../support/enquiries'
import { gotoHydrated, waitForHydration } from '../support/page'
import {
  ACCESS_KEY_FILE,
  NO_KEY_SITE_ORIGIN,
  SITE_ORIGIN,
  SITE_PORT,
  siteOutput,
  TEST_ACCESS_KEY,
} from '../support/servers'
import { jsonLogLines, loggedLines, stateDir } from '../support/site-server'

/**
 * The operator's inbox at /admin, on the main test site, which trusts the stand-in Access key server
 * on 127.0.0.1 (playwright.config.ts): the same token check that runs in production, with tokens
 * signed here. Other tests' enquiries are in the same inbox: each test finds its own by name.
 */
test.describe.configure({ mode: 'default', timeout: 180_000 })

/** How long a test waits for the site to store or deliver an enquiry, on a busy machine. */
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

/** Sends an enquiry through the contact form's endpoint, as a browser without JavaScript does. */
const submit = (request: APIRequestContext, values: Enquiry) => postEnquiry(request, origin, values, 'inbox')

async function operatorPage(
  browser: Browser,
  javaScriptEnabled = true,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: tokenHeader() })
  return { context, page: await context.newPage() }
}

async function openEnquiry(page: Page, name: string) {
  await page.goto(`${origin}/admin?q=${encodeURIComponent(name)}`)
  await page.getByRole('link', { name, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

/** Whether a log line is the inbox's record of an operator's action. */
function isAdminLine(line: Record<string, unknown>, action: string): boolean {
  return line.event === 'admin' && line.action === action
}

function adminLines(action: string) {
  return jsonLogLines(siteOutput()).filter((line) => isAdminLine(line, action))
}

test('without a valid token every /admin page and every action answers 403, never 404, with nothing from the inbox', async ({
  request,
}) => {
  const values = enquiry('inbox-guard', { name: 'Guarded Person' })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)

  const bad: [string, Record<string, string>][] = [
    ['no header', {}],
    ['garbage', { 'Cf-Access-Jwt-Assertion': 'garbage' }],
    ['wrong signature', { 'Cf-Access-Jwt-Assertion': await keys.sign({ foreignKey: true }) }],
    ['wrong audience', { 'Cf-Access-Jwt-Assertion': await keys.sign({ aud: 'another-app' }) }],
    ['wrong issuer', { 'Cf-Access-Jwt-Assertion': await keys.sign({ iss: 'https://other.cloudflareaccess.com' }) }],
    ['expired', { 'Cf-Access-Jwt-Assertion': await keys.sign({ expiresIn: -60 }) }],
    ['not yet valid', { 'Cf-Access-Jwt-Assertion': await keys.sign({ notBeforeIn: 600 }) }],
  ]
  const pages = [
    '/admin',
    '/admin/',
    `/admin/enquiries/${row.id}`,
    `/admin/erase/${row.id}`,
    '/admin/export.csv',
    '/admin/no-such-page',
    '/Admin',
  ]
  for (const [label, headers] of bad) {
    for (const path of pages) {
      const answer = await request.get(`${origin}${path}`, { headers, maxRedirects: 0 })
      expect(answer.status(), `${label} ${path}`).toBe(403)
      expect(answer.headers()['cache-control'], `${label} ${path}`).toContain('no-store')
      const body = await answer.text()
      expect(body).not.toContain(values.name)
      expect(body).not.toContain(values.email)
    }
    for (const action of ['handled', 'retry', 'release', 'erase']) {
      const answer = await request.post(`${origin}/admin/actions`, {
        form: { action, id: row.id, confirm: row.id },
        headers: { ...headers, Origin: origin },
        maxRedirects: 0,
      })
      expect(answer.status(), `${label} ${action}`).toBe(403)
    }
  }
  // Nothing changed.
  expect((await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)).id).toBe(row.id)

  // A valid token: the pages open, and a path that does not exist is 404.
  const ok = await request.get(`${origin}/admin`, { headers: tokenHeader() })
  expect(ok.status()).toBe(200)
  expect((await request.get(`${origin}/admin/no-such-page`, { headers: tokenHeader() })).status()).toBe(404)

  // A fresh clone's server has no Access configuration: it fails closed, even for this token.
  const unconfigured = await request.get(`${NO_KEY_SITE_ORIGIN}/admin`, { headers: tokenHeader() })
  expect(unconfigured.status()).toBe(403)

  const denials = () => jsonLogLines(siteOutput()).filter((line) => line.event === 'admin_denied')
  await expect.poll(() => denials().length).toBeGreaterThan(0)
  const denied = denials()
  expect(JSON.stringify(denied)).not.toContain(token)
})

test('the list is newest first, filters by status, searches, pages a detail with the delivery history; never cached or indexed', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const first = enquiry('inbox-list', { name: `Asha ${tag}`, company: `Rao ${tag} Textiles` })
  const second = enquiry('inbox-list', { name: `Bharat ${tag}`, message: `Please call.\nWe have 12 sites. ${tag}` })
  await submit(request, first)
  await expectStored(persistTo, first.email, 'delivered', undefined, WAIT_MS)
  await submit(request, second)
  await expectStored(persistTo, second.email, 'delivered', undefined, WAIT_MS)

  const { context, page } = await operatorPage(browser)
  const response = await gotoHydrated(page, `${origin}/admin`)
  expect(response?.headers()['cache-control']).toContain('no-store')
  expect(response?.headers()['x-robots-tag']).toContain('noindex')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  await expect(page.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeVisible()

  // The delivery set-up is shown to operators (and no longer to the world at /api/health).
  await expect(page.getByTestId('setup-delivery')).toHaveText('form-service')
  await expect(page.getByTestId('setup-missing')).toContainText('nothing')
  await expect(page.getByTestId('setup-rate-limiter')).toHaveText('bound')
  expect(await page.content()).not.toContain(TEST_ACCESS_KEY)

  // Search by company, then by name; newest first.
  await page.getByLabel('Name, e-mail or company').fill(tag)
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`))
  const names = page.locator('tbody tr td:nth-child(2)')
  await expect(names).toHaveText([second.name, first.name])
  await page.getByLabel('Name, e-mail or company').fill(`Textiles`)
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page.locator('tbody tr', { hasText: first.name })).toHaveCount(1)
  await expect(page.locator('tbody tr', { hasText: second.name })).toHaveCount(0)

  // Filter by status.
  await page.goto(`${origin}/admin?q=${tag}`)
  await page.getByLabel('Status').selectOption('failed')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page.getByTestId('list-count')).toHaveText('No enquiries.')
  await page.getByLabel('Status').selectOption('delivered')
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(names).toHaveText([second.name, first.name])

  // A search that looks like a number is served as sent, and stays as typed once the page hydrates.
  const answer = await page.goto(`${origin}/admin?q=12345678`)
  expect(answer?.request().redirectedFrom()).toBeNull()
  await waitForHydration(page)
  await expect(page).toHaveURL(`${origin}/admin?q=12345678`)
  await expect(page.getByLabel('Name, e-mail or company')).toHaveValue('12345678')

  // A wildcard in the search is taken literally.
  await page.goto(`${origin}/admin?q=${encodeURIComponent(`%${tag}`)}`)
  await expect(page.getByTestId('list-count')).toHaveText('No enquiries.')

  // Detail: the whole message and the delivery history.
  await openEnquiry(page, second.name)
  await expect(page.getByTestId('message')).toHaveText(second.message)
  const history = page.getByRole('table')
  await expect(history.getByRole('row')).toHaveCount(2)
  await expect(history.getByRole('row').nth(1)).toContainText('form-service')
  await expect(history.getByRole('row').nth(1)).toContainText('delivered')
  await expect(page.getByRole('button', { name: 'Retry delivery now' })).toHaveCount(0)
  await context.close()

  // Paging: 25 a page.
  const manyTag = crypto.randomUUID().slice(0, 8)
  const rows = Array.from(
    { length: 27 },
    (_, i) =>
      `('page-${manyTag}-${i}', 'page-${manyTag}-${i}', '2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z', 'Paged ${manyTag} ${i}', 'paged@example.com', '', 'general', 'x', 'handled')`,
  )
  await executeSql(
    origin,
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status) VALUES ${rows.join(', ')}`,
  )
  const paged = await request.get(`${origin}/admin?q=Paged%20${manyTag}`, { headers: tokenHeader() })
  const html = await paged.text()
  expect(html).toContain('1–25 of 27')
  expect(html).toContain(`Paged ${manyTag} 26`)
  expect(html).not.toContain(`Paged ${manyTag} 1<`)
  // The pager: on the first page, where it is and the older page's link, with the search kept.
  expect(html).toContain('Page <!-- -->1<!-- --> of <!-- -->2')
  expect(html).toMatch(/<a href="\/admin\?[^"]*page=2[^"]*"[^>]*rel="next">Older<\/a>/)
  expect(html).not.toContain('rel="prev"')
  const page2 = await (
    await request.get(`${origin}/admin?q=Paged%20${manyTag}&page=2`, { headers: tokenHeader() })
  ).text()
  expect(page2).toContain('26–27 of 27')
  expect(page2).toContain(`Paged ${manyTag} 1<`)
  expect(page2).toContain(`Paged ${manyTag} 0<`)
  expect(page2).toMatch(/<a href="\/admin\?[^"]*"[^>]*rel="prev">Newer<\/a>/)
  expect(page2).not.toContain('rel="next"')
})

test('the CSV export holds the current filter, as UTF-8 with formula cells neutralised', async ({ request }) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const risky = enquiry('inbox-csv', { name: `=cmd() ${tag}`, company: `@SUM(1) ${tag}`, message: 'నమస్కారం, "quoted"' })
  const other = enquiry('inbox-csv', { name: `Plain ${tag}` })
  await submit(request, risky)
  await submit(request, other)
  await expectStored(persistTo, risky.email, 'delivered', undefined, WAIT_MS)
  await expectStored(persistTo, other.email, 'delivered', undefined, WAIT_MS)

  const answer = await request.get(`${origin}/admin/export.csv?q=${encodeURIComponent(`=cmd() ${tag}`)}`, {
    headers: tokenHeader(),
  })
  expect(answer.status()).toBe(200)
  expect(answer.headers()['content-type']).toBe('text/csv; charset=utf-8')
  expect(answer.headers()['content-disposition']).toMatch(/^attachment; filename="enquiries-[\d-]+\.csv"$/)
  expect(answer.headers()['cache-control']).toContain('no-store')
  const bytes = await answer.body()
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const csv = bytes.subarray(3).toString('utf8')
  const lines = csv.split('\r\n')
  expect(lines[0]).toMatch(/^"ID","Received","Status","Name","E-mail","Company"/)
  expect(lines).toHaveLength(3)
  expect(lines[1]).toContain(`"'=cmd() ${tag}"`)
  expect(lines[1]).toContain(`"'@SUM(1) ${tag}"`)
  expect(lines[1]).toContain('"నమస్కారం, ""quoted"""')
  expect(csv).not.toContain(other.name)

  // The operator by Access's ID for them, never by e-mail.
  await expect.poll(() => adminLines('export').at(-1)).toMatchObject({ operator: TEST_OPERATOR_ID, rows: 1 })
  expect(JSON.stringify(adminLines('export'))).not.toContain(TEST_OPERATOR)
})

test('mark handled, with one log line naming the operator (by Access’s ID) and the enquiry, never its content or the operator’s e-mail', async ({
  browser,
  request,
}) => {
  const values = enquiry('inbox-handled', {
    name: `Handled ${crypto.randomUUID().slice(0, 8)}`,
    message: 'Secret plans.',
  })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  const { context, page } = await operatorPage(browser)
  await openEnquiry(page, values.name)
  await page.getByRole('button', { name: 'Mark handled' }).click()
  await expect(page.getByRole('status')).toContainText('Marked handled')
  await expect(page.getByText(`by ${TEST_OPERATOR}`)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Mark handled' })).toHaveCount(0)
  await expectStored(persistTo, values.email, 'handled', undefined, WAIT_MS)

  await page.goto(`${origin}/admin?status=handled&q=${encodeURIComponent(values.name)}`)
  await expect(page.locator('tbody tr', { hasText: values.name })).toHaveCount(1)
  await context.close()

  const lines = await loggedLines(siteOutput, (line) => isAdminLine(line, 'handled') && line.enquiryId === row.id)
  expect(lines[0]).toMatchObject({ operator: TEST_OPERATOR_ID, enquiryId: row.id, result: 'handled' })
  const text = JSON.stringify(lines[0])
  for (const secret of [values.message, values.email, values.name, TEST_OPERATOR]) expect(text).not.toContain(secret)
})

test('retry delivery now: a failed first attempt, then the retry delivers it, once', async ({ browser, request }) => {
  const values = enquiry('inbox-retry', { name: `Retry ${crypto.randomUUID().slice(0, 8)}` })
  await setScenario(values.email, { kind: 'status', status: 503 })
  await submit(request, values)
  await expectStored(persistTo, values.email, 'pending', 1, WAIT_MS)
  expect(await receivedFrom(values.email)).toHaveLength(1)

  await setScenario(values.email, { kind: 'success' })
  const { context, page } = await operatorPage(browser)
  await openEnquiry(page, values.name)
  await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('upstream_status')
  await page.getByRole('button', { name: 'Retry delivery now' }).click()
  await expect(page.getByRole('status')).toContainText('Delivered now.')
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(3)
  const row = await expectStored(persistTo, values.email, 'delivered', 2, WAIT_MS)
  expect(await receivedFrom(values.email)).toHaveLength(2)

  // Delivered: no retry offered, and a retry posted anyway sends nothing.
  await expect(page.getByRole('button', { name: 'Retry delivery now' })).toHaveCount(0)
  const again = await request.post(`${origin}/admin/actions`, {
    form: { action: 'retry', id: row.id },
    headers: { ...tokenHeader(), Origin: origin },
    maxRedirects: 0,
  })
  expect(again.status()).toBe(303)
  expect(again.headers().location).toBe(`/admin/enquiries/${row.id}?notice=not-retried`)
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(2)
  await context.close()
})

test('a held enquiry is not delivered by the scheduled run; released, it is delivered once', async ({
  browser,
  request,
}) => {
  const values = enquiry('inbox-held', { name: `Held ${crypto.randomUUID().slice(0, 8)}` })
  await setScenario(values.email, { kind: 'status', status: 503 })
  await submit(request, values)
  const stored = await expectStored(persistTo, values.email, 'pending', 1, WAIT_MS)
  await executeSql(
    origin,
    `UPDATE enquiries SET status = 'held', held_reason = 'turnstile_missing', next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE id = '${stored.id}'`,
  )
  await setScenario(values.email, { kind: 'success' })
  await runCron(origin)
  await expectStored(persistTo, values.email, 'held', 1, WAIT_MS)
  expect(await receivedFrom(values.email)).toHaveLength(1)

  const { context, page } = await operatorPage(browser)
  await openEnquiry(page, values.name)
  await expect(page.getByText('turnstile_missing')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Retry delivery now' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Release and deliver' }).click()
  await expect(page.getByRole('status')).toContainText('Delivered now.')
  await expectStored(persistTo, values.email, 'delivered', 2, WAIT_MS)
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(2)
  await context.close()
})

test('erase, after a confirmation step: gone from the inbox, the CSV and the database, history included', async ({
  browser,
  request,
}) => {
  const values = enquiry('inbox-erase', { name: `Erase ${crypto.randomUUID().slice(0, 8)}` })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  const { context, page } = await operatorPage(browser)
  await openEnquiry(page, values.name)
  await page.getByRole('link', { name: 'Erase…' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Erase the enquiry from ${values.name}?`)
  // Cancel keeps it.
  await page.getByRole('link', { name: 'Cancel' }).click()
  await expect(page.getByRole('heading', { level: 1, name: values.name })).toBeVisible()
  // A post without the confirmation leads to the confirmation page and deletes nothing.
  const unconfirmed = await request.post(`${origin}/admin/actions`, {
    form: { action: 'erase', id: row.id },
    headers: { ...tokenHeader(), Origin: origin },
    maxRedirects: 0,
  })
  expect(unconfirmed.headers().location).toBe(`/admin/erase/${row.id}`)
  expect(await storedFrom(persistTo, values.email)).toHaveLength(1)

  await page.getByRole('link', { name: 'Erase…' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Erase the enquiry from ${values.name}?`)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  await expect(page).toHaveURL(`${origin}/admin?notice=erased`)
  await expect(page.getByRole('status')).toContainText('erased')
  await context.close()

  expect(await storedFrom(persistTo, values.email)).toHaveLength(0)
  const list = await (
    await request.get(`${origin}/admin?q=${encodeURIComponent(values.name)}`, { headers: tokenHeader() })
  ).text()
  expect(list).toContain('No enquiries.')
  const csv = await (await request.get(`${origin}/admin/export.csv`, { headers: tokenHeader() })).text()
  expect(csv).not.toContain(values.name)
  expect(csv).not.toContain(values.email)
  expect((await request.get(`${origin}/admin/enquiries/${row.id}`, { headers: tokenHeader() })).status()).toBe(404)
  await loggedLines(
    siteOutput,
    (line) => isAdminLine(line, 'erase') && line.enquiryId === row.id && line.result === 'erased',
  )
})

test('retention: a scheduled run deletes enquiries older than the period, and keeps the rest', async ({ request }) => {
  const old = enquiry('inbox-old')
  const recent = enquiry('inbox-recent')
  await submit(request, old)
  await submit(request, recent)
  const oldRow = await expectStored(persistTo, old.email, 'delivered', undefined, WAIT_MS)
  await expectStored(persistTo, recent.email, 'delivered', undefined, WAIT_MS)
  // Received 731 days ago: past the 730 days the privacy page states.
  const longAgo = new Date(Date.now() - 731 * 86_400_000).toISOString()
  await executeSql(origin, `UPDATE enquiries SET received_at = '${longAgo}' WHERE id = '${oldRow.id}'`)
  await runCron(origin)
  await expect.poll(async () => (await storedFrom(persistTo, old.email)).length, { timeout: WAIT_MS }).toBe(0)
  expect(await storedFrom(persistTo, recent.email)).toHaveLength(1)
  await expect
    .poll(() => jsonLogLines(siteOutput()).some((line) => line.event === 'retention' && line.retentionDays === 730))
    .toBe(true)
})

test('without JavaScript: the inbox works and an action is a form post answered with 303', async ({
  browser,
  request,
}) => {
  const values = enquiry('inbox-nojs', { name: `NoJS ${crypto.randomUUID().slice(0, 8)}` })
  await submit(request, values)
  await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  const { context, page } = await operatorPage(browser, false)
  await page.goto(`${origin}/admin`)
  await page.getByLabel('Name, e-mail or company').fill(values.name)
  await page.getByRole('button', { name: 'Show' }).click()
  await page.getByRole('link', { name: values.name, exact: true }).click()
  const posted = page.waitForResponse((r) => r.url().endsWith('/admin/actions'))
  await page.getByRole('button', { name: 'Mark handled' }).click()
  expect((await posted).status()).toBe(303)
  await expect(page.getByRole('status')).toContainText('Marked handled')
  await expectStored(persistTo, values.email, 'handled', undefined, WAIT_MS)
  await context.close()
})

test('the inbox pages have no WCAG 2.2 A/AA violations and are keyboard-usable', async ({ browser, request }) => {
  const values = enquiry('inbox-axe', { name: `Axe ${crypto.randomUUID().slice(0, 8)}` })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  const context = await browser.newContext({ extraHTTPHeaders: tokenHeader(), reducedMotion: 'reduce' })
  const page = await context.newPage()
  for (const path of ['/admin', `/admin/enquiries/${row.id}`, `/admin/erase/${row.id}`]) {
    await gotoHydrated(page, `${origin}${path}`)
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze()
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      path,
    ).toEqual([])
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

test('the inbox is not in the sitemap, and robots.txt disallows it', async ({ request }) => {
  expect(await (await request.get(`${origin}/sitemap.xml`)).text()).not.toContain('/admin')
  expect(await (await request.get(`${origin}/robots.txt`)).text()).toContain('Disallow: /admin')
})
