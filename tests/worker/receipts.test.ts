// Receipts under abuse (docs/notices.md, "Bounds"): the daily caps, a withdraw link posted in a loop.
import { expect, test } from 'vitest'
import { TURNSTILE_FIELD } from '../../app/contact/turnstile'
import { type Enquiry, enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { postContact, postForm } from './support/http'
import { clientAddress, type Mail, withinOneWindow } from './support/site'

const SECRET = 'worker-receipt-link-secret-0123456789abcdef'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({
  vars: stand.turnstile({
    CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
    CONTACT_RETRY_DELAYS: '3600',
    RECEIPT_FROM: 'hello@aksharalabs.in',
    RECEIPT_LINK_SECRET: SECRET,
    RECEIPTS_PER_NETWORK_DAY: '3',
    RECEIPTS_PER_SITE_DAY: '6',
  }),
}))

const receiptsTo = (address: string) =>
  worker.mails().filter((mail) => {
    const to = mail.to.toLowerCase()
    return to === address.toLowerCase() || to.includes(`<${address.toLowerCase()}>`)
  })
const linkIn = (mail: Mail | undefined) => new URL(mail?.text.match(/https?:\/\/\S+\/withdraw\?\S+/)?.[0] ?? '')

/** Posts the form as a script-less client would, from `ip`, with a passing Turnstile token unless `held`. */
async function send(values: Enquiry, options: { held?: boolean; ip?: string } = {}) {
  const answer = await postContact(
    worker,
    { ...values, ...(options.held ? {} : { [TURNSTILE_FIELD]: `pass-${crypto.randomUUID()}` }) },
    { ip: options.ip ?? clientAddress() },
  )
  expect(answer.status, await answer.clone().text()).toBe(200)
}

/** Waits until every receipt the Worker decided on has been logged: sent or not, one line each. */
const receiptLines = async (count: number) => {
  await expect
    .poll(() => worker.logs().filter((line) => line.event === 'notice' && line.notice === 'receipt').length)
    .toBeGreaterThanOrEqual(count)
  return worker.logs().filter((line) => line.event === 'notice' && line.notice === 'receipt')
}

test('a valid withdraw link posted 50 times: one audit line, and the form’s limits answer 429', async () => {
  const values = enquiry('withdraw-loop')
  await send(values)
  await expect.poll(() => receiptsTo(values.email).length).toBe(1)
  const link = linkIn(receiptsTo(values.email)[0])
  const ip = clientAddress()
  await withinOneWindow(15)
  const statuses: number[] = []
  for (let n = 0; n < 50; n++)
    statuses.push((await postForm(worker, '/api/withdraw', Object.fromEntries(link.searchParams), { ip })).status)
  expect(statuses[0]).toBe(303)
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(40)
  expect(statuses.every((status) => status === 303 || status === 429)).toBe(true)
  expect(await worker.sql('SELECT action FROM audit_log WHERE action = ?', 'withdraw')).toHaveLength(1)
  expect(await worker.sql('SELECT id FROM enquiries WHERE email = ?', values.email)).toEqual([])
})

test('the per-network and site-wide daily caps hold; past them the visitor’s answer is the same', async () => {
  const tag = crypto.randomUUID().slice(0, 6)
  const network = `2001:db8:${(0x1000 + Math.floor(Math.random() * 0xe000)).toString(16)}`
  // Five from one /48 (five /64s in it): three receipts, the network's cap.
  for (let n = 1; n <= 5; n++)
    await send(enquiry('receipt-network', { email: `net-${n}-${tag}@example.com` }), { ip: `${network}:${n}::1` })
  let outcomes = (await receiptLines(5)).map((line) => line.outcome)
  expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(3)
  expect(outcomes.filter((outcome) => outcome === 'network_cap')).toHaveLength(2)
  // Five more, each from a network of its own: three more, and then the site's cap of six.
  for (let n = 1; n <= 5; n++) await send(enquiry('receipt-site', { email: `site-${n}-${tag}@example.com` }))
  outcomes = (await receiptLines(10)).map((line) => line.outcome)
  expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(6)
  expect(outcomes.filter((outcome) => outcome === 'site_cap')).toHaveLength(2)
  expect(worker.mails().filter((mail) => mail.subject.startsWith('We have your enquiry'))).toHaveLength(6)
  // Every enquiry was stored and answered 200 all the same (send() checks each answer).
  expect(await worker.sql(`SELECT id FROM enquiries WHERE email LIKE '%${tag}@example.com'`)).toHaveLength(10)
})
