import { readFileSync } from 'node:fs'
import type { Browser, Page } from '@playwright/test'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { type AccessKeyServer, startAccessKeys } from '../support/access-keys'
import {
  type Enquiry,
  enquiry,
  expect,
  fillForm,
  form,
  receivedFrom,
  test,
  uniqueClientAddress,
} from '../support/contact'
import { expectStored, runCron } from '../support/enquiries'
import { enhancedContactForm, gotoContactForm, gotoHydrated, requestedUrls } from '../support/page'
import { FORM_SERVICE_ORIGIN, PORT_BASE, TEST_ACCESS_KEY } from '../support/servers'
import { type SiteServer, startSiteServer, stateDir, writeServedConfig } from '../support/site-server'
import {
  routeTurnstileWidget,
  type Siteverify,
  startSiteverify,
  TEST_TURNSTILE_SECRET,
  TEST_TURNSTILE_SITE_KEY,
} from '../support/turnstile'

/**
 * Turnstile on, as an operator turns it on: the site key as a var, TURNSTILE_SECRET_KEY listed in
 * `[secrets] required` (a copy of the built configuration, as wrangler.toml would have it) and
 * given as a secret. Siteverify is a stand-in on 127.0.0.1; the widget's script is answered at its
 * real address by the browser's request routing, so the page's CSP decides whether it may load.
 */
test.describe.configure({ mode: 'default', timeout: 180_000 })

const PORT = PORT_BASE + 8
const WAIT_MS = 60_000
const persistTo = stateDir(PORT)
const CONFIG = `dist/server/wrangler.e2e-turnstile-${PORT}.json`
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
  writeServedConfig(CONFIG, built)
  server = await startSiteServer(
    'turnstile',
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
})

test.afterAll(async () => {
  server?.stop()
  await siteverify?.close()
  await keys?.close()
})

/** Fills the form in the browser, with the stand-in widget handing over `token`, and sends it. */
async function sendWithWidget(page: Page, values: Enquiry, token: string) {
  const scriptRequests = await routeTurnstileWidget(page, token)
  await gotoContactForm(page, `${origin}/contact`)
  expect(scriptRequests, 'nothing from Turnstile before the form is focused').toHaveLength(0)
  await fillForm(page, values)
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
  await form(page).submit.click()
  await expect(form(page).status).toContainText(SUCCESS_MESSAGE)
  return scriptRequests
}

test('the widget is not on first paint nor on other pages; it loads on the first focus, and the CSP allows its origin', async ({
  page,
}) => {
  const turnstileRequests = requestedUrls(page, (request) => request.url().includes('challenges.cloudflare.com'))
  const scriptRequests = await routeTurnstileWidget(page, 'pass-unused')
  const home = await gotoHydrated(page, `${origin}/`)
  const csp = home?.headers()['content-security-policy'] ?? ''
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/challenges\.cloudflare\.com(;|$)/)
  expect(csp).toContain('frame-src https://challenges.cloudflare.com')
  expect(csp.match(/challenges\.cloudflare\.com/g)).toHaveLength(2)

  await gotoHydrated(page, `${origin}/services/devops`)
  await gotoContactForm(page, `${origin}/contact`)
  expect(turnstileRequests, 'nothing from Turnstile on the pages or the form’s first paint').toEqual([])

  await form(page).name.focus()
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
  expect(scriptRequests).toHaveLength(1)
  expect(scriptRequests[0]?.url()).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit')
})

test('a field focused before the form’s code arrived starts the widget once the code is there', async ({ page }) => {
  const scriptRequests = await routeTurnstileWidget(page, 'pass-unused')
  await gotoHydrated(page, `${origin}/contact`)
  // The first focus is what fetches the form's code; focus then stays in this field, and React
  // hands that focus to the form once it has hydrated.
  await form(page).message.focus()
  await expect(enhancedContactForm(page)).toHaveCount(1)
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
  expect(scriptRequests).toHaveLength(1)
})

test('reached by an in-site navigation, the form asks for the site key and loads the widget on focus', async ({
  page,
}) => {
  const scriptRequests = await routeTurnstileWidget(page, 'pass-unused')
  await gotoHydrated(page, `${origin}/about`)
  await page.getByRole('link', { name: 'Contact', exact: true }).first().click()
  await expect(page.getByRole('heading', { name: 'Send us a message' })).toBeVisible()
  expect(scriptRequests).toHaveLength(0)
  await form(page).name.focus()
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
})

test('a valid token: siteverify checks it, and the enquiry is delivered once', async ({ page }) => {
  const values = enquiry('turnstile-valid')
  await sendWithWidget(page, values, `pass-${crypto.randomUUID()}`)
  const row = await expectStored(persistTo, values.email, 'delivered', 1, WAIT_MS)
  expect(row.heldReason).toBeNull()
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(1)
  const call = siteverify.calls().find((c) => c.response.startsWith('pass-') && c.secret === TEST_TURNSTILE_SECRET)
  expect(call).toBeTruthy()
})

test('an invalid token: the visitor is told it is sent, the enquiry is held and nothing is delivered', async ({
  page,
}) => {
  const values = enquiry('turnstile-invalid')
  await sendWithWidget(page, values, 'forged-token')
  const row = await expectStored(persistTo, values.email, 'held', 0, WAIT_MS)
  expect(row.heldReason).toBe('turnstile_invalid')
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(0)
})

test('no token (a post without JavaScript): stored as held, the visitor sent back to the success message', async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientAddress() },
  })
  const page = await context.newPage()
  const values = enquiry('turnstile-nojs')
  await page.goto(`${origin}/contact`)
  await fillForm(page, values)
  await form(page).submit.click()
  await expect(form(page).status).toContainText(SUCCESS_MESSAGE)
  const row = await expectStored(persistTo, values.email, 'held', 0, WAIT_MS)
  expect(row.heldReason).toBe('turnstile_missing')
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(0)
  await context.close()
})

test('siteverify down: held as unverified; released from the inbox, delivered once', async ({ page, browser }) => {
  const values = enquiry('turnstile-down', { name: `Held ${crypto.randomUUID().slice(0, 8)}` })
  siteverify.down(true)
  try {
    await sendWithWidget(page, values, `pass-${crypto.randomUUID()}`)
  } finally {
    siteverify.down(false)
  }
  const row = await expectStored(persistTo, values.email, 'held', 0, WAIT_MS)
  expect(row.heldReason).toBe('turnstile_unverified')
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(0)

  await releaseInInbox(browser, values.name)
  await expectStored(persistTo, values.email, 'delivered', 1, WAIT_MS)
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(1)
})

test('the inbox shows operators that Turnstile is on', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': await keys.sign() } })
  const page = await context.newPage()
  await page.goto(`${origin}/admin`)
  await expect(page.getByTestId('setup-turnstile')).toHaveText('on: enquiries without a valid token are held')
  await context.close()
})

async function releaseInInbox(browser: Browser, name: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': await keys.sign() } })
  const page = await context.newPage()
  await page.goto(`${origin}/admin?status=held&q=${encodeURIComponent(name)}`)
  await page.getByRole('link', { name, exact: true }).click()
  await expect(page.getByText('turnstile_unverified')).toBeVisible()
  await page.getByRole('button', { name: 'Release and deliver' }).click()
  await expect(page.getByRole('status')).toContainText('Delivered now.')
  await context.close()
}
