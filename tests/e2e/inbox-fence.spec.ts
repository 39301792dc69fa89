import type { APIRequestContext } from '@playwright/test'
import { type AccessKeys, accessKeysFrom, TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'
import { type Enquiry, enquiry, expect, postEnquiry, receivedFrom, setScenario, test } from '../support/contact'
import {
  executeSql,
  expectStored,
  operatorCommandResult,
  runCron,
  storedAttempts,
  storedFrom,
} from '../support/enquiries'
import { ACCESS_KEY_FILE, SITE_ORIGIN, SITE_PORT, siteOutput } from '../support/servers'
import { jsonLogLines, stateDir } from '../support/site-server'

/**
 * The inbox under pressure, on the main test site (which trusts the stand-in Access key server):
 * two operators pressing Retry at once, the CLI's retry while an attempt holds the enquiry, reply
 * links for addresses built to smuggle in a Bcc, and a cross-site post carrying a valid token.
 */
test.describe.configure({ timeout: 180_000 })

const WAIT_MS = 60_000
const origin = SITE_ORIGIN
const persistTo = stateDir(SITE_PORT)
let keys: AccessKeys
let token: string

test.beforeAll(async () => {
  keys = await accessKeysFrom(ACCESS_KEY_FILE)
  token = await keys.sign({ expiresIn: 4 * 3600 })
})

const submit = (request: APIRequestContext, values: Enquiry) => postEnquiry(request, origin, values, 'fence')

/** An operator's press of an action button: the form post the page makes, and the notice it leads to. */
async function press(request: APIRequestContext, action: string, id: string): Promise<string | null> {
  const answer = await request.post(`${origin}/admin/actions`, {
    form: { action, id },
    headers: { 'Cf-Access-Jwt-Assertion': token, Origin: origin },
    maxRedirects: 0,
  })
  expect(answer.status()).toBe(303)
  return new URL(answer.headers().location ?? '', origin).searchParams.get('notice')
}

/** A pending enquiry whose first attempt failed (the form service answered 503). */
async function failedOnce(request: APIRequestContext, label: string) {
  const values = enquiry(label, { name: `${label} ${crypto.randomUUID().slice(0, 8)}` })
  await setScenario(values.email, { kind: 'status', status: 503 })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'pending', 1, WAIT_MS)
  expect(await receivedFrom(values.email)).toHaveLength(1)
  const [first] = await storedAttempts(persistTo, row.id)
  expect(first).toMatchObject({ attempt: 1, outcome: 'failed', cause: 'upstream_status' })
  return { values, row, first }
}

test('two operators pressing Retry at the same moment: the form service gets the lead once', async ({
  browser,
  request,
}) => {
  const { values, row, first } = await failedOnce(request, 'fence-twice')
  // The service is back, and slow: the first press is still sending when the second arrives.
  await setScenario(values.email, { kind: 'slow', delayMs: 3_000 })
  const notices = await Promise.all([press(request, 'retry', row.id), press(request, 'retry', row.id)])

  // Exactly one more forward, whoever won.
  expect(await receivedFrom(values.email)).toHaveLength(2)
  await runCron(origin)
  expect(await receivedFrom(values.email)).toHaveLength(2)
  // One attempt and one "busy" (or, had the second press come after the first finished, "not sent again").
  expect([
    ['busy', 'delivered'],
    ['delivered', 'not-retried'],
  ]).toContainEqual([...notices].sort())
  await expectStored(persistTo, values.email, 'delivered', 2, WAIT_MS)
  // The first attempt's history row is intact; the second is its own row.
  expect(await storedAttempts(persistTo, row.id)).toEqual([
    first,
    expect.objectContaining({ attempt: 2, outcome: 'delivered', cause: null }),
  ])

  // What the operator who lost the race sees.
  const context = await browser.newContext({ extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': token } })
  const page = await context.newPage()
  await page.goto(`${origin}/admin/enquiries/${row.id}?notice=busy`)
  await expect(page.getByRole('status')).toHaveText('Another delivery attempt is under way; look again in a minute.')
  await context.close()

  // The action lines name the operator by Access's ID, never by e-mail.
  const lines = jsonLogLines(siteOutput()).filter((line) => line.event === 'admin' && line.enquiryId === row.id)
  expect(lines.map((line) => line.operator)).toEqual([TEST_OPERATOR_ID, TEST_OPERATOR_ID])
  expect(JSON.stringify(lines)).not.toContain(TEST_OPERATOR)
})

test('`npm run enquiries -- retry` while an attempt holds the enquiry says busy, exits non-zero and changes nothing', async ({
  request,
}) => {
  const { values, row } = await failedOnce(request, 'fence-cli')
  await setScenario(values.email, { kind: 'success' })
  // An attempt under way, as one in a Worker cut off mid-send leaves it: its token, its lease's end.
  const leaseUntil = new Date(Date.now() + 120_000).toISOString()
  await executeSql(
    origin,
    `UPDATE enquiries SET lease_token = 'an-attempt-under-way', lease_until = '${leaseUntil}', next_attempt_at = '${leaseUntil}' WHERE id = '${row.id}'`,
  )
  const busy = await operatorCommandResult('retry', row.id, '--persist-to', persistTo, '--url', origin)
  expect(busy.code).not.toBe(0)
  expect(busy.stderr).toContain(`Enquiry ${row.id} is busy: a delivery attempt under way holds it until ${leaseUntil}.`)
  expect(busy.stdout).not.toContain('is due now')
  const [after] = await storedFrom(persistTo, values.email)
  expect(after).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: leaseUntil })
  expect(await receivedFrom(values.email)).toHaveLength(1)
  // The inbox's Retry says the same.
  expect(await press(request, 'retry', row.id)).toBe('busy')
  expect(await receivedFrom(values.email)).toHaveLength(1)

  // The lease runs out (the attempt never reported back): a retry goes through, and delivers once.
  const past = new Date(Date.now() - 1_000).toISOString()
  await executeSql(origin, `UPDATE enquiries SET lease_until = '${past}' WHERE id = '${row.id}'`)
  expect(await press(request, 'retry', row.id)).toBe('delivered')
  await expectStored(persistTo, values.email, 'delivered', 2, WAIT_MS)
  expect(await receivedFrom(values.email)).toHaveLength(2)
})

/** Addresses the form accepts (a browser's type="email" does), and the reply link each gets. */
const MAILTO: [string, string][] = [
  ['sales%40client.example?bcc=spy%40evil.example&x=', 'sales%2540client.example%3Fbcc%3Dspy%2540evil.example%26x%3D'],
  ['a?cc=spy', 'a%3Fcc%3Dspy'],
  ['x&bcc=spy', 'x%26bcc%3Dspy'],
  ['100%25off', '100%2525off'],
  ['to=spy', 'to%3Dspy'],
  ['first.last+tag', 'first.last%2Btag'],
]

test('reply links: no address can add a recipient or a header to the operator’s reply', async ({
  browser,
  request,
}) => {
  const domain = `t${crypto.randomUUID().slice(0, 8)}.a.co`
  const rows = await Promise.all(
    MAILTO.map(async ([local]) => {
      const values = enquiry('fence-mailto', { email: `${local}@${domain}`, name: `Mailto ${local}` })
      await submit(request, values)
      return expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
    }),
  )
  const context = await browser.newContext({ extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': token } })
  const page = await context.newPage()
  for (const [i, [local, encoded]] of MAILTO.entries()) {
    const address = `${local}@${domain}`
    await page.goto(`${origin}/admin/enquiries/${rows[i]?.id}`)
    const link = page.getByTestId('reply-address')
    await expect(link).toHaveText(address)
    const href = await link.getAttribute('href')
    expect(href, address).toBe(`mailto:${encoded}@${domain}`)
    // The browser's own reading of the link: no query (no header fields), no fragment, one address.
    const parsed = await page.evaluate((value) => {
      const url = new URL(value)
      return {
        protocol: url.protocol,
        search: url.search,
        hash: url.hash,
        params: [...url.searchParams.keys()],
        to: decodeURIComponent(url.pathname),
      }
    }, href ?? '')
    expect(parsed, address).toEqual({ protocol: 'mailto:', search: '', hash: '', params: [], to: address })
    for (const header of ['bcc', 'cc', 'to', 'subject', 'body']) expect(parsed.params).not.toContain(header)
  }
  // The list shows addresses as text, never as links.
  await page.goto(`${origin}/admin?q=${encodeURIComponent(domain)}`)
  await expect(page.locator('tbody tr')).toHaveCount(MAILTO.length)
  await expect(page.locator('tbody a[href^="mailto:"]')).toHaveCount(0)
  await context.close()
})

test('a cross-site post to /admin/actions with a valid Access token gets 403 and changes nothing', async ({
  browser,
  request,
}) => {
  const values = enquiry('fence-csrf', { name: `CSRF ${crypto.randomUUID().slice(0, 8)}` })
  await submit(request, values)
  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)

  // From a page on another site, in the operator's own browser: Access adds the token to every
  // request to the site, this one included.
  const context = await browser.newContext({ extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': token } })
  const page = await context.newPage()
  const evil = `http://127.0.0.1:${SITE_PORT}/cross-site-page`
  await page.route(evil, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Prize</title><form method="post" action="${origin}/admin/actions">
        <input name="action" value="erase"><input name="id" value="${row.id}"><input name="confirm" value="${row.id}">
        </form><script>document.forms[0].submit()</script>`,
    }),
  )
  const posted = page.waitForResponse((response) => response.url() === `${origin}/admin/actions`)
  await page.goto(evil)
  const answer = await posted
  expect(answer.status()).toBe(403)
  expect(answer.request().headers()['cf-access-jwt-assertion']).toBe(token)
  expect(await answer.json()).toMatchObject({ error: 'cross_site_request' })
  await context.close()

  // The same post by hand, as a script elsewhere would send it.
  const crossSite: Record<string, string>[] = [
    { Origin: 'https://evil.example' },
    { Origin: 'null' },
    { 'Sec-Fetch-Site': 'cross-site' },
    { 'Sec-Fetch-Site': 'same-site', Origin: 'https://preview.aksharalabs.in' },
    { Referer: 'https://evil.example/page' },
  ]
  for (const headers of crossSite) {
    for (const action of ['handled', 'erase', 'retry']) {
      const refused = await request.post(`${origin}/admin/actions`, {
        form: { action, id: row.id, confirm: row.id },
        headers: { 'Cf-Access-Jwt-Assertion': token, ...headers },
        maxRedirects: 0,
      })
      expect(refused.status(), `${JSON.stringify(headers)} ${action}`).toBe(403)
    }
  }
  // The enquiry is as it was: delivered, not handled, not erased, sent once.
  const [after] = await storedFrom(persistTo, values.email)
  expect(after).toMatchObject({ id: row.id, status: 'delivered', handledBy: null, attempts: 1 })
  expect(await receivedFrom(values.email)).toHaveLength(1)
  const actions = jsonLogLines(siteOutput()).filter((line) => line.event === 'admin' && line.enquiryId === row.id)
  expect(actions).toEqual([])
})
