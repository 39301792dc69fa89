import { readFileSync } from 'node:fs'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import { site } from '../../app/site'
import {
  enquiry,
  expect,
  expectEmptyFields,
  expectFields,
  fillForm,
  form,
  receivedFrom,
  setScenario,
  test,
  uniqueClientAddress,
} from '../support/contact'
import { expectStored, runCron, storedFrom } from '../support/enquiries'
import { gotoContactForm } from '../support/page'
import { FORM_SERVICE_ORIGIN, PORT_BASE, SITE_ORIGIN, SITE_PORT, TEST_ACCESS_KEY } from '../support/servers'
import {
  jsonLogLines,
  lastEmailFile,
  loggedLines,
  type SiteServer,
  startSiteServer,
  stateDir,
} from '../support/site-server'

// Generous: these tests wait for deliveries and time-outs, and some run wrangler as an operator does.
test.describe.configure({ timeout: 150_000 })

/**
 * The enquiry record: every accepted enquiry is in D1 before anything else happens, a repeat of
 * the same form fill is one enquiry, and delivery is retried until it succeeds or is given up on,
 * with the operator told.
 */

test.describe('when the enquiry cannot be stored', () => {
  // A server whose database never got its schema: every write fails inside D1, as an outage would.
  test.describe.configure({ mode: 'serial' })
  let server: SiteServer
  const PORT = PORT_BASE + 5

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    server = await startSiteServer(
      'no-store',
      PORT,
      {
        CONTACT_DELIVERY: 'form-service',
        CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
        CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY,
      },
      { persistTo: `${stateDir(PORT)}-empty`, processEnv: { SKIP_MIGRATIONS: '1' } },
    )
  })

  test.afterAll(() => server?.stop())

  test('the visitor gets the failure message with every field kept, nothing is sent, one log line without personal data', async ({
    page,
  }) => {
    const values = enquiry('no-store', { message: 'Confidential: our budget.' })
    await gotoContactForm(page, `${server.origin}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toHaveCount(0)
    await expectFields(page, values)

    await page.waitForTimeout(1_000)
    expect(await receivedFrom(values.email)).toHaveLength(0)
    const lines = await loggedLines(
      () => server.output(),
      (l) => l.outcome === 'not_stored',
    )
    expect(lines[0]).toMatchObject({ event: 'contact', cause: 'store_error' })
    const line = JSON.stringify(lines[0])
    for (const text of [values.email, values.name, values.message, values.company]) expect(line).not.toContain(text)
  })

  test('without JavaScript: the failure message, and the values rendered back into the form', async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientAddress() },
    })
    const page = await context.newPage()
    const values = enquiry('no-store-nojs', { name: 'Zoë "Z" Ñúñez', message: 'నమస్కారం\nPlease call.' })
    await page.goto(`${server.origin}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await page.waitForURL(`${server.origin}/contact#contact-status`)
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
    await expectFields(page, values)
    expect(await receivedFrom(values.email)).toHaveLength(0)
    await context.close()
  })
})

test.describe('one form fill is one enquiry', () => {
  test('a resend after a network blip (the answer lost on the way back) stores and delivers it once', async ({
    page,
  }) => {
    const values = enquiry('blip')
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    // The first post reaches the server, which stores it; its answer never reaches the browser.
    let blips = 0
    await page.route('**/_serverFn/**', async (route) => {
      if (blips++ > 0) return route.continue()
      await route.fetch()
      await route.abort('connectionreset')
    })
    await form(page).submit.click()
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
    await expectFields(page, values)

    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    const row = await expectStored(stateDir(SITE_PORT), values.email, 'delivered')
    expect(row.attempts).toBe(1)
    await page.waitForTimeout(500)
    expect(await storedFrom(stateDir(SITE_PORT), values.email)).toHaveLength(1)
    expect(await receivedFrom(values.email)).toHaveLength(1)

    // The next message from the same page is a new form fill, and a new enquiry.
    await fillForm(page, { ...values, message: 'And a second question.' })
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await expect
      .poll(async () => (await storedFrom(stateDir(SITE_PORT), values.email)).length, { timeout: 20_000 })
      .toBe(2)
  })

  test('without JavaScript: the same form posted twice is one enquiry, delivered once', async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientAddress() },
    })
    const page = await context.newPage()
    const values = enquiry('twice-nojs')
    await page.goto('/contact')
    await fillForm(page, values)
    const key = await page.locator('input[name="enquiry_key"]').inputValue()
    expect(key).toMatch(/^[\w-]{16,64}$/)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()

    // The browser posts the same form again (a double click, or Back and resubmit).
    const again = await page.request.post(`${SITE_ORIGIN}/api/contact`, {
      form: { ...values, enquiry_key: key },
      headers: { Origin: SITE_ORIGIN, 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Site': 'same-origin' },
      maxRedirects: 0,
    })
    expect(again.status()).toBe(303)
    await expectStored(stateDir(SITE_PORT), values.email, 'delivered')
    await page.waitForTimeout(500)
    expect(await storedFrom(stateDir(SITE_PORT), values.email)).toHaveLength(1)
    expect(await receivedFrom(values.email)).toHaveLength(1)
    // A fresh page is a fresh form fill: its key differs.
    await page.goto('/contact')
    expect(await page.locator('input[name="enquiry_key"]').inputValue()).not.toBe(key)
    await context.close()
  })
})

test.describe('a secret missing, then set; attempts exhausted', () => {
  test.describe.configure({ mode: 'serial' })
  const PORT = PORT_BASE + 6
  const persistTo = stateDir(PORT)
  const common = {
    CONTACT_DELIVERY: 'form-service',
    CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
    // Each retry is due at once, so scheduled runs walk an enquiry through all its attempts.
    CONTACT_RETRY_DELAYS: '0,0',
    CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
  }
  let server: SiteServer | undefined
  const waiting = enquiry('waiting')

  test.afterAll(() => server?.stop())

  test('without the key the enquiry is stored and waits; every scheduled run names the missing secret', async ({
    page,
  }) => {
    test.setTimeout(240_000)
    server = await startSiteServer('no-key-yet', PORT, common)
    await gotoContactForm(page, `${server.origin}/contact`)
    await fillForm(page, waiting)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await expectEmptyFields(page)
    await expectStored(persistTo, waiting.email, 'pending', 0)

    await runCron(server.origin)
    await runCron(server.origin)
    const config = () =>
      jsonLogLines(server?.output() ?? '').filter((l) => l.event === 'contact_config' && l.pending !== undefined)
    await expect.poll(() => config().length).toBe(2)
    expect(config()[0]).toMatchObject({ missing: 'CONTACT_FORM_ACCESS_KEY', pending: 1 })
    expect(await receivedFrom(waiting.email)).toHaveLength(0)
    expect((await expectStored(persistTo, waiting.email, 'pending')).attempts).toBe(0)
    server.stop()
    await server.stopped()
  })

  test('once the key is set, the next scheduled run delivers what waited, once', async () => {
    test.setTimeout(240_000)
    server = await startSiteServer('key-set', PORT, { ...common, CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY })
    await runCron(server.origin)
    const row = await expectStored(persistTo, waiting.email, 'delivered', 1)
    expect(row.deliveredBy).toBe('form-service')
    await runCron(server.origin)
    expect(await receivedFrom(waiting.email)).toHaveLength(1)
  })

  test('after the last attempt the enquiry is failed, one gave_up line is logged, and the company inbox is told', async ({
    page,
  }) => {
    const values = enquiry('gave-up')
    await setScenario(values.email, { kind: 'status', status: 503 })
    const origin = server?.origin ?? ''
    await gotoContactForm(page, `${origin}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await expectStored(persistTo, values.email, 'pending', 1)
    await runCron(origin)
    await expectStored(persistTo, values.email, 'pending', 2)
    await runCron(origin)
    const row = await expectStored(persistTo, values.email, 'failed', 3)
    expect(row.lastCause).toBe('upstream_status')
    await runCron(origin)
    expect(await receivedFrom(values.email)).toHaveLength(3)

    const gaveUp = await loggedLines(
      () => server?.output() ?? '',
      (l) => l.outcome === 'gave_up' && l.enquiryId === row.id,
    )
    expect(gaveUp[0]).toMatchObject({ event: 'contact', cause: 'upstream_status', attempt: 3, notified: true })
    for (const text of [values.email, values.name, values.message])
      expect(JSON.stringify(gaveUp[0])).not.toContain(text)

    // wrangler's local send_email writes the message to a file and logs its path.
    const path = await lastEmailFile(server as SiteServer)
    const raw = readFileSync(path, 'utf8')
    expect(raw).toMatch(new RegExp(`^To: "${site.name}" <${site.email}>`, 'm'))
    const body = Buffer.from((raw.split('\r\n\r\n')[1] ?? '').replace(/\s+/g, ''), 'base64').toString('utf8')
    expect(body).toContain(row.id)
    expect(body).toContain('after 3 attempts')
    expect(body).toContain(values.message.replace(/\n/g, '\r\n'))
  })
})

test.describe('every address a browser accepts', () => {
  const ADDRESSES: [string, boolean][] = [
    ["o'brien@example.com", true],
    ['first.last+tag@example.co.in', true],
    ['user@localhost', true],
    ['a.b-c_d@sub.example.com', true],
    ['plainaddress', false],
    ['@example.com', false],
    ['user@', false],
    ['user@-example.com', false],
    ['user@example..com', false],
    ['user name@example.com', false],
  ]

  test('the browser, the form and the server agree on each address in the table', async ({ page, request }) => {
    await gotoContactForm(page, '/contact')
    const browserSays = await page.evaluate(
      (addresses) => {
        const input = document.createElement('input')
        input.type = 'email'
        return addresses.map((address) => {
          input.value = address
          return input.checkValidity()
        })
      },
      ADDRESSES.map(([address]) => address),
    )
    expect(browserSays).toEqual(ADDRESSES.map(([, valid]) => valid))

    for (const [address, valid] of ADDRESSES) {
      const answer = await request.post('/api/contact', {
        form: { name: 'Table', email: address, subject: 'general', message: 'Checking an address.' },
        headers: { Origin: SITE_ORIGIN, 'CF-Connecting-IP': uniqueClientAddress() },
      })
      expect(answer.status(), address).toBe(valid ? 200 : 400)
      if (!valid) expect((await answer.json()).fields?.email, address).toBeTruthy()
    }

    // And the visitor with the apostrophe gets through the form itself.
    const values = enquiry('apostrophe', { email: `o'brien-${Date.now()}@example.com` })
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await expectStored(stateDir(SITE_PORT), values.email, 'delivered')
  })
})

test('a POST without Origin, Sec-Fetch-Site or Referer is refused, on both contact endpoints', async ({ request }) => {
  const values = enquiry('no-origin')
  const plain = await request.post('/api/contact', {
    form: { ...values },
    headers: { 'CF-Connecting-IP': uniqueClientAddress() },
  })
  expect(plain.status()).toBe(403)
  expect(await plain.json()).toMatchObject({ ok: false, error: 'cross_site_request' })
  const fn = await request.post('/_serverFn/anything', {
    data: { data: values },
    headers: { 'CF-Connecting-IP': uniqueClientAddress(), 'x-tsr-serverFn': 'true' },
  })
  expect(fn.status()).toBe(403)
  expect(await receivedFrom(values.email)).toHaveLength(0)
  expect(await storedFrom(stateDir(SITE_PORT), values.email)).toHaveLength(0)
})
