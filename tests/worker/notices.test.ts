// The receipt, its withdraw link and its bounds, and the daily digest, as send_email takes them (docs/notices.md).
import { expect, test } from 'vitest'
import { signWithdrawLink } from '../../app/notices/receipt-link'
import { site as company } from '../../app/site'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { follow, postEnquiry, postForm, pressButton } from './support/http'
import { linkIn } from './support/mail'
import { clientAddress, type Mail, withinOneWindow } from './support/site'

const SECRET = 'worker-receipt-link-secret-0123456789abcdef'
const RECEIPT_FROM = 'hello@aksharalabs.in'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({
  vars: stand.turnstile({
    CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
    // A failed enquiry waits an hour: only first attempts happen here.
    CONTACT_RETRY_DELAYS: '3600',
    DIGEST_HOUR_UTC: '0',
    ALERT_AFTER_FAILURES: '3',
    RECEIPT_FROM,
    RECEIPT_LINK_SECRET: SECRET,
    RECEIPTS_PER_NETWORK_DAY: '3',
    RECEIPTS_PER_SITE_DAY: '6',
  }),
}))

const mailsTo = (address: string) =>
  worker.mails().filter((mail) => mail.to.includes(`<${address}>`) || mail.to === address)
const idsOf = (email: string) => worker.sql('SELECT id FROM enquiries WHERE email = ?', email)

test('the receipt’s link withdraws and erases the enquiry, without JavaScript; a forged or an expired link does nothing', async () => {
  const values = enquiry('withdraw')
  const id = await postEnquiry(worker, values)
  await expect.poll(() => mailsTo(values.email).length).toBe(1)
  const link = linkIn(mailsTo(values.email)[0], '/withdraw')
  expect(link.searchParams.get('id')).toBe(id)
  const open = async (params: URLSearchParams) => {
    const response = await worker.fetch(`/withdraw?${params}`)
    return { response, document: parseHtml(await response.text()) }
  }
  const heading = (document: Document) => textOf(document.querySelector('h1'))

  // The link as the receipt has it is answered with the page itself: no redirect to another form of it.
  const asSent = await open(link.searchParams)
  expect(asSent.response.status).toBe(200)
  expect(heading(asSent.document)).toBe('Withdraw your enquiry?')
  expect(asSent.document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow')
  expect(textOf(asSent.document.body)).toContain(id.slice(0, 15))

  // Forged: the signature changed.
  const forged = new URLSearchParams(link.searchParams)
  const sig = forged.get('sig') as string
  forged.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`)
  const forgedPage = (await open(forged)).document
  expect(heading(forgedPage)).toBe('This link does not work')
  expect(textOf(forgedPage.body)).toContain('Nothing was changed.')
  expect([...forgedPage.querySelectorAll('button')].map(textOf)).not.toContain('Withdraw and erase')
  // Expired: signed with the right secret, but its 30 days are over.
  const old = await signWithdrawLink(SECRET, id, new Date(Date.now() - 31 * 86_400_000))
  const expired = new URLSearchParams({ id, until: String(old.until), sig: old.sig })
  expect(heading((await open(expired)).document)).toBe('This link has expired')
  // Posting them anyway changes nothing.
  for (const [params, result] of [
    [forged, 'invalid'],
    [expired, 'expired'],
  ] as const) {
    const post = await postForm(worker, '/api/withdraw', Object.fromEntries(params))
    expect(post.status).toBe(303)
    expect(post.headers.get('location')).toBe(`/withdraw?result=${result}`)
  }
  expect(await idsOf(values.email)).toHaveLength(1)

  // The real link: one button, and the enquiry is gone (its history too).
  const withdrawn = await pressButton(worker, asSent.document, 'Withdraw and erase')
  expect(withdrawn.status).toBe(303)
  expect(heading(parseHtml(await (await follow(worker, withdrawn)).text()))).toBe('Your enquiry is withdrawn')
  expect(await idsOf(values.email)).toEqual([])
  expect(await worker.sql('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?', id)).toEqual([])
  // Used again: nothing left to withdraw.
  expect(heading((await open(link.searchParams)).document)).toBe('Nothing to withdraw')
  expect(await (await worker.fetch('/sitemap.xml')).text()).not.toContain('/withdraw')
})

test('the daily digest: once a day, with each count and a link into the desk', async () => {
  // In the last 24 hours: one delivered, one held, three failing.
  await postEnquiry(worker, enquiry('digest-delivered'))
  await postEnquiry(worker, enquiry('digest-held'), { held: true })
  for (const values of [enquiry('digest-f1'), enquiry('digest-f2'), enquiry('digest-f3')]) {
    stand.forms.setScenario(values.email, { kind: 'failure' })
    await postEnquiry(worker, values, { status: 'pending' })
  }
  const digests = () => worker.mails().filter((mail) => mail.subject.startsWith('Enquiries '))
  // Once a day, even when runs race: tests/unit/notices-ledger.
  await worker.cron()
  await expect.poll(() => digests().length).toBe(1)
  const [digest] = digests() as [Mail]
  expect(digest.to).toBe(`"${company.name}" <${company.email}>`)
  const day = new Date().toISOString().slice(0, 10)
  expect(digest.subject).toBe(`Enquiries ${day}: 5 received, 4 need a look — ${company.name}`)
  const count = (label: string) => Number(digest.text.match(new RegExp(`^${label}\\s+(\\d+)`, 'm'))?.[1])
  expect(count('Received in the last 24 h')).toBe(5)
  expect(count('Delivered in the last 24 h')).toBe(1)
  expect(count('Held \\(spam check\\), waiting')).toBe(1)
  expect(count('Failing delivery now')).toBe(3)
  expect(count('Overdue')).toBe(0)
  // Each line's link into the desk: tests/unit/notices.
  expect(digest.text).toMatch(new RegExp(`^Received in the last 24 h\\s+5\\s+${company.url}/admin$`, 'm'))
  expect(digest.text).not.toContain('@example.com')
})

/** Waits until every receipt the Worker decided on has been logged: sent or not, one line each. */
const receiptLines = async (count: number) => {
  await expect
    .poll(() => worker.logs().filter((line) => line.event === 'notice' && line.notice === 'receipt').length)
    .toBeGreaterThanOrEqual(count)
  return worker.logs().filter((line) => line.event === 'notice' && line.notice === 'receipt')
}

test('a valid withdraw link posted 50 times: one audit line, and the form’s limits answer 429', async () => {
  const values = enquiry('withdraw-loop')
  await postEnquiry(worker, values)
  await expect.poll(() => mailsTo(values.email).length).toBe(1)
  const link = linkIn(mailsTo(values.email)[0], '/withdraw')
  const ip = clientAddress()
  await withinOneWindow(15)
  const statuses: number[] = []
  for (let n = 0; n < 50; n++)
    statuses.push((await postForm(worker, '/api/withdraw', Object.fromEntries(link.searchParams), { ip })).status)
  expect(statuses[0]).toBe(303)
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(40)
  expect(statuses.every((status) => status === 303 || status === 429)).toBe(true)
  expect(await worker.sql('SELECT action FROM audit_log WHERE action = ?', 'withdraw')).toHaveLength(1)
  expect(await idsOf(values.email)).toEqual([])
})

test('the per-network and site-wide daily caps hold; past them the visitor’s answer is the same', async () => {
  const tag = crypto.randomUUID().slice(0, 6)
  const network = `2001:db8:${(0x1000 + Math.floor(Math.random() * 0xe000)).toString(16)}`
  // Five from one /48 (five /64s in it): three receipts, the network's cap.
  for (let n = 1; n <= 5; n++)
    await postEnquiry(worker, enquiry('receipt-network', { email: `net-${n}-${tag}@example.com` }), {
      ip: `${network}:${n}::1`,
    })
  let outcomes = (await receiptLines(5)).map((line) => line.outcome)
  expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(3)
  expect(outcomes.filter((outcome) => outcome === 'network_cap')).toHaveLength(2)
  // Five more, each from a network of its own: three more, and then the site's cap of six.
  for (let n = 1; n <= 5; n++)
    await postEnquiry(worker, enquiry('receipt-site', { email: `site-${n}-${tag}@example.com` }))
  outcomes = (await receiptLines(10)).map((line) => line.outcome)
  expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(6)
  expect(outcomes.filter((outcome) => outcome === 'site_cap')).toHaveLength(2)
  expect(worker.mails().filter((mail) => mail.subject.startsWith('We have your enquiry'))).toHaveLength(6)
  // Every enquiry was stored and answered 200 all the same (postEnquiry checks each answer).
  expect(await worker.sql(`SELECT id FROM enquiries WHERE email LIKE '%${tag}@example.com'`)).toHaveLength(10)
})
