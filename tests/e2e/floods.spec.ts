import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import { TURNSTILE_FIELD } from '../../app/contact/turnstile'
import { rateLimit } from '../../scripts/wrangler-facts'
import { type AccessKeyServer, startAccessKeys } from '../support/access-keys'
import {
  awayFromMinuteBoundary,
  type Enquiry,
  enquiry,
  expect,
  expectFields,
  fillForm,
  form,
  receivedFrom,
  test,
  uniqueClientAddress,
} from '../support/contact'
import { executeSql, expectStored, runCron, storedEnquiries, storedFrom } from '../support/enquiries'
import { gotoContactForm, gotoHydrated } from '../support/page'
import { FORM_SERVICE_ORIGIN, PORT_BASE, TEST_ACCESS_KEY } from '../support/servers'
import { jsonLogLines, type SiteServer, startSiteServer, stateDir, writeServedConfig } from '../support/site-server'
import {
  routeTurnstileWidget,
  type Siteverify,
  startSiteverify,
  TEST_TURNSTILE_SECRET,
  TEST_TURNSTILE_SITE_KEY,
} from '../support/turnstile'

/**
 * Floods, on a server of their own, configured as an operator under a flood would have it:
 * Turnstile on (so every post without a valid token is held), and, to prove the backstop in
 * workerd, without the rate-limit bindings (a copy of the built configuration without
 * `ratelimits`): the limits are then the ones counted in the enquiry database. The bindings' own
 * limits are proven on the main site (contact-abuse.spec.ts).
 */
test.describe.configure({ mode: 'default', timeout: 120_000 })

const PORT = PORT_BASE + 13
const WAIT_MS = 60_000
/** The most held enquiries kept from one hour (`HELD_PER_HOUR`, app/contact/limits.server.ts; docs/contact.md). */
const HELD_PER_HOUR = 20
const CLIENT = rateLimit('CONTACT_RATE_LIMITER')
const NETWORK = rateLimit('CONTACT_NETWORK_RATE_LIMITER')
const persistTo = stateDir(PORT)
const CONFIG = `dist/server/wrangler.e2e-floods-${PORT}.json`
let server: SiteServer
let siteverify: Siteverify
let keys: AccessKeyServer
let origin: string

test.beforeAll(async () => {
  test.setTimeout(180_000)
  siteverify = await startSiteverify()
  keys = await startAccessKeys()
  const built = JSON.parse(readFileSync('dist/server/wrangler.json', 'utf8'))
  built.secrets = { required: [...(built.secrets?.required ?? []), 'TURNSTILE_SECRET_KEY'] }
  built.ratelimits = []
  writeServedConfig(CONFIG, built)
  // A database of its own, empty: the hourly cap counts every held enquiry of the last hour.
  rmSync(persistTo, { recursive: true, force: true })
  server = await startSiteServer(
    'floods',
    PORT,
    keys.vars({
      CONTACT_DELIVERY: 'form-service',
      CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
      CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY,
      TURNSTILE_SITE_KEY: TEST_TURNSTILE_SITE_KEY,
      TURNSTILE_SECRET_KEY: TEST_TURNSTILE_SECRET,
      TURNSTILE_VERIFY_URL: siteverify.url,
    }),
    { persistTo, processEnv: { CONFIG } },
  )
  origin = server.origin
  await insert(FIXTURES)
})

test.afterAll(async () => {
  server?.stop()
  await siteverify?.close()
  await keys?.close()
})

/** A /48 no other test uses (3fff::/20 is documentation space, like 2001:db8::/32). */
function network(): string {
  return `3fff:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
}

/** Posts the form as a client without JavaScript does, from `address`; with `token`, as if the widget had passed. */
async function post(request: APIRequestContext, address: string, values: Enquiry, token?: string) {
  return request.post(`${origin}/api/contact`, {
    headers: { Origin: origin, 'CF-Connecting-IP': address, Accept: 'application/json' },
    form: { ...values, ...(token ? { [TURNSTILE_FIELD]: token } : {}) },
  })
}

async function operator(
  browser: Browser,
  javaScriptEnabled: boolean,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    javaScriptEnabled,
    extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': await keys.sign() },
  })
  return { context, page: await context.newPage() }
}

/** Whether the server has logged a line that matches (a line reaches the output a moment after its answer). */
const logged = (match: (line: Record<string, unknown>) => boolean) => jsonLogLines(server.output()).some(match)
const heldRows = async () => (await storedEnquiries(persistTo)).filter((row) => row.status === 'held')
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()

/** A SQL row of an enquiry received at `at`, for inserting old or many rows at once. */
function row(id: string, at: string, status: string, heldReason: string | null): string {
  const reason = heldReason ? `'${heldReason}'` : 'NULL'
  return `('${id}', 'key-${id}', '${at}', 'Flood ${id}', '${id}@example.com', '', 'general', 'spam', '${status}', ${reason})`
}

async function insert(rows: string[]) {
  await executeSql(
    origin,
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, held_reason) VALUES ${rows.join(', ')}`,
  )
}

/** This run's rows, put in once (a wrangler call costs seconds): held ones of other days and reasons, and real ones. */
const tag = randomBytes(4).toString('hex')
const [day2, day3] = [daysAgo(2), daysAgo(3)]
const FIXTURES = [
  ...[1, 2, 3].map((i) => row(`unverified-${tag}-${i}`, day3, 'held', 'turnstile_unverified')),
  ...[1, 2, 3, 4].map((i) => row(`invalid-${tag}-${i}`, day2, 'held', 'turnstile_invalid')),
  row(`real-${tag}`, day2, 'delivered', null),
  row(`held-15d-${tag}`, daysAgo(15), 'held', 'turnstile_missing'),
  row(`held-13d-${tag}`, daysAgo(13), 'held', 'turnstile_invalid'),
  row(`real-15d-${tag}`, daysAgo(15), 'delivered', null),
]

// In this order: the purge and the bulk erasure read the rows above; the held cap fills the hour last.

test('with no rate limiter bound, the enquiry database still limits: a /64 after 5 a minute, its /48 after 10', async ({
  request,
}) => {
  await awayFromMinuteBoundary()
  const net = network()
  const token = () => `pass-${crypto.randomUUID()}`
  const statuses: number[] = []
  for (let i = 1; i <= CLIENT.limit + 1; i++)
    statuses.push((await post(request, `${net}:1::${i}`, enquiry(`backstop-${i}`), token())).status())
  expect(statuses).toEqual([...Array(CLIENT.limit).fill(200), 429])
  // Other /64s of the /48 share its 10, which the refused post counted against too.
  const left = NETWORK.limit - CLIENT.limit - 1
  const others: number[] = []
  for (let i = 2; i <= left + 3; i++)
    others.push((await post(request, `${net}:${i}::1`, enquiry(`backstop-48-${i}`), token())).status())
  expect(others).toEqual([...Array(left).fill(200), 429, 429])

  // What the operator sees.
  const answer = await request.get(`${origin}/admin`, { headers: { 'Cf-Access-Jwt-Assertion': await keys.sign() } })
  expect(await answer.text()).toContain('not bound: the enquiry database counts posts instead')
  expect(jsonLogLines(server.output()).some((line) => line.missing === 'CONTACT_NETWORK_RATE_LIMITER')).toBe(true)
})

test('a scheduled run deletes held enquiries after 14 days, and keeps younger held ones and real ones', async () => {
  await runCron(origin)
  const ofThisTest = [`held-15d-${tag}`, `held-13d-${tag}`, `real-15d-${tag}`]
  await expect
    .poll(async () => (await storedEnquiries(persistTo)).map((r) => r.id).filter((id) => ofThisTest.includes(id)), {
      timeout: WAIT_MS,
    })
    .toEqual([`held-13d-${tag}`, `real-15d-${tag}`])
  await expect
    .poll(() => logged((line) => line.event === 'retention' && Number(line.held) >= 1 && line.heldRetentionDays === 14))
    .toBe(true)
})

test('the held view and the confirmation page have no WCAG 2.2 A/AA violations', async ({ browser }) => {
  const { context, page } = await operator(browser, true)
  for (const path of ['/admin?status=held', `/admin/erase-held?day=${day2.slice(0, 10)}`]) {
    await gotoHydrated(page, `${origin}${path}`)
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze()
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      path,
    ).toEqual([])
  }
  await context.close()
})

test('erase held enquiries in bulk — one reason’s, one day’s, then all — each after a confirmation step, without JavaScript', async ({
  browser,
  request,
}) => {
  const count = async (match: (r: Awaited<ReturnType<typeof heldRows>>[number]) => boolean) =>
    (await heldRows()).filter(match).length
  const unverified = await count((r) => r.heldReason === 'turnstile_unverified')
  const { context, page } = await operator(browser, false)

  // One reason's.
  await page.goto(`${origin}/admin?status=held`)
  await expect(page.getByRole('heading', { name: 'Erase held enquiries' })).toBeVisible()
  await page.getByRole('link', { name: 'Erase… the held as turnstile_unverified' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Erase ${unverified} held enquiries held as turnstile_unverified?`,
  )
  // Without the confirmation, a post only leads to this page, and erases nothing.
  const unconfirmed = await request.post(`${origin}/admin/actions`, {
    form: { action: 'erase-held', reason: 'turnstile_unverified' },
    headers: { Origin: origin, 'Cf-Access-Jwt-Assertion': await keys.sign() },
    maxRedirects: 0,
  })
  expect(unconfirmed.status()).toBe(303)
  expect(unconfirmed.headers().location).toBe('/admin/erase-held?reason=turnstile_unverified')
  expect(await count((r) => r.heldReason === 'turnstile_unverified')).toBe(unverified)
  const posted = page.waitForResponse((r) => r.url().endsWith('/admin/actions'))
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  expect((await posted).status()).toBe(303)
  await expect(page).toHaveURL(`${origin}/admin?status=held&notice=held-erased`)
  await expect(page.getByRole('status')).toContainText('The held enquiries were erased')
  expect(await count((r) => r.heldReason === 'turnstile_unverified')).toBe(0)
  expect(await count((r) => r.id.startsWith(`invalid-${tag}`))).toBe(4)

  // One day's: the held of that day go, a real enquiry of the same day stays.
  const day = day2.slice(0, 10)
  const ofDay = await count((r) => r.receivedAt.startsWith(day))
  await page.getByRole('link', { name: `Erase… the held of ${day}` }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Erase ${ofDay} held enquir${ofDay === 1 ? 'y' : 'ies'} received on ${day} (UTC)?`,
  )
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  await expect(page.getByRole('status')).toContainText('The held enquiries were erased')
  expect(await count((r) => r.receivedAt.startsWith(day))).toBe(0)
  expect(await storedFrom(persistTo, `real-${tag}@example.com`)).toHaveLength(1)

  // All of them: up to the newest the page counted. One held after the page was shown is kept.
  const all = (await heldRows()).length
  await page.getByRole('link', { name: `Erase all ${all} held…` }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Erase ${all} held enquir${all === 1 ? 'y' : 'ies'}?`,
  )
  const later = enquiry('held-later')
  expect((await post(request, `${network()}::1`, later)).status()).toBe(200)
  await page.getByRole('button', { name: 'Erase permanently' }).click()
  await expect(page.getByRole('status')).toContainText('The held enquiries were erased')
  expect((await heldRows()).map((r) => r.email)).toEqual([later.email])
  await context.close()

  await expect.poll(() => jsonLogLines(server.output()).filter((line) => line.action === 'erase-held').length).toBe(3)
  const lines = jsonLogLines(server.output()).filter((line) => line.event === 'admin' && line.action === 'erase-held')
  expect(lines).toEqual([
    expect.objectContaining({ reason: 'turnstile_unverified', day: 'all', erased: unverified }),
    expect.objectContaining({ reason: 'all', day, erased: ofDay }),
    expect.objectContaining({ reason: 'all', day: 'all', erased: all, result: 'held-erased' }),
  ])
  // Who acted is on each line as every inbox action names its operator; never an enquiry's content.
  expect(lines.every((line) => typeof line.operator === 'string' && line.operator !== '')).toBe(true)
  expect(JSON.stringify(lines)).not.toContain('@example.com')
})

test(`the held cap: ${HELD_PER_HOUR} held an hour; beyond, a visitor without a token gets the failure message with every field kept, and one with a valid token is stored and delivered`, async ({
  browser,
  page,
  request,
}) => {
  const lastHour = async () =>
    (await heldRows()).filter((r) => Date.parse(r.receivedAt) > Date.now() - 3_500_000).length
  // Fill the hour's places, each post from a network of its own (so no rate limit is reached).
  const toFill = HELD_PER_HOUR - (await lastHour())
  for (let i = 0; i < toFill; i++)
    expect((await post(request, `${network()}::1`, enquiry(`held-${i}`))).status()).toBe(200)
  expect(await lastHour()).toBe(HELD_PER_HOUR)

  // A visitor without JavaScript (so without a token): not stored, so not told it was sent.
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientAddress() },
  })
  const noJs = await context.newPage()
  const values = enquiry('held-over-cap', { message: 'Please call me.\nI have no JavaScript.' })
  await noJs.goto(`${origin}/contact`)
  await fillForm(noJs, values)
  await form(noJs).submit.click()
  await expect(form(noJs).status).toContainText(FAILURE_MESSAGE)
  await expectFields(noJs, values)
  await context.close()
  expect(await storedFrom(persistTo, values.email)).toEqual([])

  // A client that reads the answer is told when to try again: when the oldest place frees, within the hour.
  const over = await post(request, `${network()}::1`, enquiry('held-over-cap-api'), 'forged-token')
  expect(over.status()).toBe(429)
  expect(await over.json()).toEqual({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE })
  expect(Number(over.headers()['retry-after'])).toBeGreaterThan(60)
  expect(Number(over.headers()['retry-after'])).toBeLessThanOrEqual(3600)
  expect(await lastHour()).toBe(HELD_PER_HOUR)
  await expect
    .poll(() => logged((line) => line.outcome === 'held_cap' && line.heldReason === 'turnstile_invalid'))
    .toBe(true)

  // A visitor whose token is valid is never held, so never capped.
  const real = enquiry('held-cap-real')
  await routeTurnstileWidget(page, `pass-${crypto.randomUUID()}`)
  await gotoContactForm(page, `${origin}/contact`)
  await fillForm(page, real)
  await form(page).submit.click()
  await expect(form(page).status).toContainText(SUCCESS_MESSAGE)
  await expectStored(persistTo, real.email, 'delivered', 1, WAIT_MS)
  expect(await receivedFrom(real.email)).toHaveLength(1)
})
