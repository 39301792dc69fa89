import { randomInt } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext } from '@playwright/test'
import { signWithdrawLink } from '../../app/notices/receipt-link'
import { site } from '../../app/site'
import { type Enquiry, enquiry, expect, setScenario, test } from '../support/contact'
import { expectStored, runCron, storedFrom } from '../support/enquiries'
import { gotoHydrated } from '../support/page'
import { FORM_SERVICE_ORIGIN, PORT_BASE, TEST_ACCESS_KEY } from '../support/servers'
import { loggedLines, type SiteServer, startSiteServer, stateDir } from '../support/site-server'
import { type Siteverify, startSiteverify, TEST_TURNSTILE_SECRET, TEST_TURNSTILE_SITE_KEY } from '../support/turnstile'

/**
 * The notices (docs/notices.md) on a server of their own, as wrangler's local send_email writes
 * them to files: the receipt to the person who wrote and its withdraw link, the delivery alert and
 * the daily digest to the company. A fresh database each run, so today's digest is not yet sent.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 })

const PORT = PORT_BASE + 40
const persistTo = `${stateDir(PORT)}-${Date.now()}`
const SECRET = 'e2e-receipt-link-secret-0123456789abcdef'
const RECEIPT_FROM = 'hello@aksharalabs.in'
let server: SiteServer
let siteverify: Siteverify

test.beforeAll(async () => {
  test.setTimeout(150_000)
  siteverify = await startSiteverify()
  server = await startSiteServer(
    'notices',
    PORT,
    {
      CONTACT_DELIVERY: 'form-service',
      CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
      CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY,
      CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
      // A failed enquiry waits an hour: only first attempts happen here.
      CONTACT_RETRY_DELAYS: '3600',
      DIGEST_HOUR_UTC: '0',
      ALERT_AFTER_FAILURES: '3',
      RECEIPT_FROM,
      RECEIPT_LINK_SECRET: SECRET,
      TURNSTILE_SITE_KEY: TEST_TURNSTILE_SITE_KEY,
      TURNSTILE_SECRET_KEY: TEST_TURNSTILE_SECRET,
      TURNSTILE_VERIFY_URL: siteverify.url,
    },
    { persistTo },
  )
})

test.afterAll(async () => {
  server?.stop()
  await server?.stopped()
  await siteverify?.close()
  rmSync(persistTo, { recursive: true, force: true })
})

interface Mail {
  from: string
  to: string
  subject: string
  text: string
}

const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))

/** Every message wrangler's local send_email wrote for this server, from the paths it printed. */
function mails(): Mail[] {
  return [...server.output().matchAll(/Email: (\S+\.eml)/g)].map((match) => {
    const raw = readFileSync(match[1] as string, 'utf8')
    const [head = '', body = ''] = raw.split('\r\n\r\n')
    const header = (name: string) =>
      decodeWords((head.match(new RegExp(`^${name}: (.*(?:\\r\\n .*)*)`, 'mi'))?.[1] ?? '').replace(/\r\n /g, ' '))
    return {
      from: header('From'),
      to: header('To'),
      subject: header('Subject'),
      text: Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8').replace(/\r\n/g, '\n'),
    }
  })
}

const mailsTo = (address: string) => mails().filter((mail) => mail.to.includes(`<${address}>`) || mail.to === address)

/** Posts the form as a script-less client would, from an address of its own; with a token unless held. */
async function send(request: APIRequestContext, values: Enquiry, options: { held?: boolean } = {}) {
  const answer = await request.post(`${server.origin}/api/contact`, {
    form: { ...values, ...(options.held ? {} : { 'cf-turnstile-response': `pass-${crypto.randomUUID()}` }) },
    headers: {
      Origin: server.origin,
      'CF-Connecting-IP': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    },
  })
  expect(answer.status(), await answer.text()).toBe(200)
}

let first: Enquiry
let receiptText = ''

test('the receipt: sent once, with a reference and no message text; not for a held enquiry; not twice in a day to one address', async ({
  request,
}) => {
  first = enquiry('receipt', { name: 'Śrī Rāma', company: 'Company-Words-7f3', message: 'Secret plan: 42 robots.' })
  await send(request, first)
  const row = await expectStored(persistTo, first.email, 'delivered', 1)
  await expect.poll(() => mailsTo(first.email).length, { timeout: 15_000 }).toBe(1)
  const [receipt] = mailsTo(first.email) as [Mail]
  receiptText = receipt.text
  expect(receipt.from).toBe(`"${site.name}" <${RECEIPT_FROM}>`)
  expect(receipt.subject).toContain('We have your enquiry')
  expect(receipt.text).toContain('Hello Śrī Rāma,')
  const reference = row.id.slice(0, 15)
  expect(receipt.text).toContain(`Your reference: ${reference}`)
  expect(receipt.subject).toContain(reference)
  expect(receipt.text).toContain('within one business day')
  expect(receipt.text).toContain(`${site.url}/withdraw?id=${encodeURIComponent(row.id)}&until=`)
  for (const typed of [first.message, 'Secret plan', first.company, first.email])
    expect(receipt.text + receipt.subject).not.toContain(typed)

  // Held (no Turnstile token): stored, told "sent", but no receipt.
  const held = enquiry('receipt-held')
  await send(request, held, { held: true })
  await expectStored(persistTo, held.email, 'held', 0)

  // The same address again the same day: stored and delivered, no second receipt.
  const again = enquiry('receipt-again', { email: first.email, message: 'One more thing.' })
  await send(request, again)
  await expect.poll(async () => (await storedFrom(persistTo, first.email)).length).toBe(2)
  const secondId = (await storedFrom(persistTo, first.email)).find((r) => r.id !== row.id)?.id
  await loggedLines(server.output, (line) => line.notice === 'receipt' && line.enquiryId === secondId)
  expect(
    (await loggedLines(server.output, (line) => line.notice === 'receipt' && line.enquiryId === secondId))[0]?.outcome,
  ).toBe('daily_limit')
  expect(mailsTo(first.email)).toHaveLength(1)
  expect(mailsTo(held.email)).toHaveLength(0)
})

test('the receipt’s link withdraws and erases the enquiry, without JavaScript; a forged or an expired link does nothing', async ({
  browser,
  request,
}) => {
  const link = new URL(receiptText.match(/https?:\/\/\S+\/withdraw\?\S+/)?.[0] ?? '')
  const id = link.searchParams.get('id') as string
  const local = (params: URLSearchParams) => `${server.origin}/withdraw?${params}`
  // The link as the receipt has it is answered with the page itself: no redirect to another form of it.
  const asSent = await request.get(local(link.searchParams), { maxRedirects: 0 })
  expect(asSent.status()).toBe(200)
  expect(await asSent.text()).toContain('Withdraw your enquiry?')
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  try {
    // Forged: the signature changed.
    const forged = new URLSearchParams(link.searchParams)
    const sig = forged.get('sig') as string
    forged.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`)
    await page.goto(local(forged))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work')
    await expect(page.getByText('Nothing was changed.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Withdraw and erase' })).toHaveCount(0)
    // Expired: signed with the right secret, but its 30 days are over.
    const old = await signWithdrawLink(SECRET, id, new Date(Date.now() - 31 * 86_400_000))
    const expired = new URLSearchParams({ id, until: String(old.until), sig: old.sig })
    await page.goto(local(expired))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has expired')
    // Posting them anyway changes nothing.
    for (const [params, result] of [
      [forged, 'invalid'],
      [expired, 'expired'],
    ] as const) {
      const post = await request.post(`${server.origin}/api/withdraw`, {
        form: Object.fromEntries(params),
        headers: { Origin: server.origin },
        maxRedirects: 0,
      })
      expect(post.status()).toBe(303)
      expect(post.headers().location).toBe(`/withdraw?result=${result}`)
    }
    expect((await storedFrom(persistTo, first.email)).map((r) => r.id)).toContain(id)
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')

    // The real link: a confirmation, then one button, and the enquiry is gone (its history too).
    await page.goto(local(link.searchParams))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Withdraw your enquiry?')
    await expect(page.getByText(id.slice(0, 15))).toBeVisible()
    await page.getByRole('button', { name: 'Withdraw and erase' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your enquiry is withdrawn')
    expect((await storedFrom(persistTo, first.email)).map((r) => r.id)).not.toContain(id)
    expect(await storedFrom(persistTo, first.email)).toHaveLength(1)
    // Used again: nothing left to withdraw.
    await page.goto(local(link.searchParams))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nothing to withdraw')
  } finally {
    await context.close()
  }
  const sitemap = await (await request.get(`${server.origin}/sitemap.xml`)).text()
  expect(sitemap).not.toContain('/withdraw')
})

test('an alert as soon as three enquiries in a row fail for one cause, and no second one within the hour', async ({
  request,
}) => {
  const failing = [enquiry('alert-1'), enquiry('alert-2'), enquiry('alert-3')]
  for (const values of failing) {
    await setScenario(values.email, { kind: 'failure' })
    await send(request, values)
    const row = await expectStored(persistTo, values.email, 'pending', 1)
    expect(row.lastCause).toBe('upstream_refused')
  }
  const alerts = () => mails().filter((mail) => mail.subject.startsWith('Deliveries failing'))
  await runCron(server.origin)
  await expect.poll(() => alerts().length, { timeout: 15_000 }).toBe(1)
  const [alert] = alerts() as [Mail]
  expect(alert.to).toBe(`"${site.name}" <${site.email}>`)
  expect(alert.subject).toContain('upstream_refused on 3 enquiries in a row')
  for (const values of failing) {
    const row = (await storedFrom(persistTo, values.email))[0]
    expect(alert.text).toContain(`${site.url}/admin/enquiries/${encodeURIComponent(row?.id ?? '?')}`)
    expect(alert.text).not.toContain(values.email)
    expect(alert.text).not.toContain(values.message)
  }

  // A fourth failure within the hour: the streak grows, but no second alert.
  const fourth = enquiry('alert-4')
  await setScenario(fourth.email, { kind: 'failure' })
  await send(request, fourth)
  await expectStored(persistTo, fourth.email, 'pending', 1)
  await runCron(server.origin)
  await runCron(server.origin)
  await loggedLines(server.output, (line) => line.notice === 'digest' && line.outcome === 'sent')
  expect(alerts()).toHaveLength(1)
})

test('the daily digest: once a day, with each count and a link into the inbox', async () => {
  // The first scheduled run of the day sent it (in the test above, after the alert); this one does not.
  await runCron(server.origin)
  const digests = () => mails().filter((mail) => mail.subject.startsWith('Enquiries '))
  await expect.poll(() => digests().length, { timeout: 15_000 }).toBe(1)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  expect(digests()).toHaveLength(1)
  const [digest] = digests() as [Mail]
  expect(digest.to).toBe(`"${site.name}" <${site.email}>`)
  const day = new Date().toISOString().slice(0, 10)
  // When it went: the receipt's second enquiry (delivered), the held one and three failing (the
  // first was withdrawn, the fourth not yet sent).
  expect(digest.subject).toBe(`Enquiries ${day}: 5 received, 4 need a look — ${site.name}`)
  const count = (label: string) => Number(digest.text.match(new RegExp(`^${label}\\s+(\\d+)`, 'm'))?.[1])
  expect(count('Received in the last 24 h')).toBe(5)
  expect(count('Delivered in the last 24 h')).toBe(1)
  expect(count('Held \\(spam check\\), waiting')).toBe(1)
  expect(count('Failing delivery now')).toBe(3)
  expect(count('Overdue')).toBe(0)
  for (const status of ['delivered', 'held', 'failed'])
    expect(digest.text).toContain(`${site.url}/admin?status=${status}`)
  expect(digest.text).toContain(`${site.url}/admin?overdue=yes`)
  expect(digest.text).toMatch(new RegExp(`^Received in the last 24 h\\s+5\\s+${site.url}/admin$`, 'm'))
  for (const values of [first]) expect(digest.text).not.toContain(values.email)
})

test('the withdraw page is axe-clean and works by keyboard alone', async ({ page, request }) => {
  const values = enquiry('withdraw-keys')
  await send(request, values)
  await expect.poll(() => mailsTo(values.email).length, { timeout: 15_000 }).toBe(1)
  const link = new URL(mailsTo(values.email)[0]?.text.match(/https?:\/\/\S+\/withdraw\?\S+/)?.[0] ?? '')
  const axe = async () => {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
  await gotoHydrated(page, `${server.origin}/withdraw?sig=forged`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work')
  await axe()
  await gotoHydrated(page, `${server.origin}/withdraw${link.search}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Withdraw your enquiry?')
  await axe()
  const button = page.getByRole('button', { name: 'Withdraw and erase' })
  for (let i = 0; i < 40 && !(await button.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab')
  await expect(button).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your enquiry is withdrawn')
  await axe()
  expect(await storedFrom(persistTo, values.email)).toHaveLength(0)
})
