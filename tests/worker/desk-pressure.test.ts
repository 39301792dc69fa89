// Two operators at once, the operator's command during an attempt, reply links that add no recipient.
import { describe, expect, test } from 'vitest'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { textOf } from './support/html'
import { enquiriesCommand } from './support/operator'

const { persistTo, stand, worker, page, rowsOf, sent, failedOnce, press } = deskUnderTest()

describe('under pressure', () => {
  test('`npm run enquiries -- retry` while an attempt holds the enquiry says busy, exits non-zero and changes nothing', async () => {
    const { values, row } = await failedOnce('fence-cli')
    stand.forms.setScenario(values.email, { kind: 'success' })
    // An attempt under way: its token, its lease's end.
    const leaseUntil = new Date(Date.now() + 120_000).toISOString()
    await worker.exec(
      `UPDATE enquiries SET lease_token = 'an-attempt-under-way', lease_until = '${leaseUntil}', next_attempt_at = '${leaseUntil}' WHERE id = '${row.id}'`,
    )
    const busy = await enquiriesCommand('retry', row.id, '--persist-to', persistTo, '--url', await worker.cronDoor())
    expect(busy.code).not.toBe(0)
    expect(busy.stderr).toContain(
      `Enquiry ${row.id} is busy: a delivery attempt under way holds it until ${leaseUntil}.`,
    )
    expect(busy.stdout).not.toContain('is due now')
    expect(await rowsOf(values.email)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, nextAttemptAt: leaseUntil }),
    ])
    expect(stand.forms.from(values.email)).toHaveLength(1)
    // The desk's Retry says the same, and why.
    expect(await press('retry', row.id)).toBe('busy')
    expect(stand.forms.from(values.email)).toHaveLength(1)
    const flash = (await page(`/admin/enquiries/${row.id}?flash=busy`)).document.querySelector('[role="status"]')
    expect(textOf(flash)).toBe('Another delivery attempt is under way; look again in a minute.')

    // The lease runs out (the attempt never reported back): a retry goes through, and delivers once.
    const past = new Date(Date.now() - 1_000).toISOString()
    await worker.exec(`UPDATE enquiries SET lease_until = '${past}' WHERE id = '${row.id}'`)
    expect(await press('retry', row.id)).toBe('delivered')
    expect(await rowsOf(values.email)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })])
    expect(stand.forms.from(values.email)).toHaveLength(2)
  }, 90_000)

  test('reply links: the page’s link adds no recipient or header; the list shows addresses as text', async () => {
    // Every kind of address: tests/unit/desk-mailto.
    const domain = `t${crypto.randomUUID().slice(0, 8)}.a.co`
    const address = `sales%40client.example?bcc=spy%40evil.example&x=@${domain}`
    const row = await sent(enquiry('fence-mailto', { email: address }))
    const link = (await page(`/admin/enquiries/${row.id}`)).document.querySelector('[data-testid="reply-address"]')
    expect(textOf(link)).toBe(address)
    expect(link?.getAttribute('href')).toBe(
      `mailto:sales%2540client.example%3Fbcc%3Dspy%2540evil.example%26x%3D@${domain}`,
    )
    const list = (await page(`/admin?q=${encodeURIComponent(domain)}`)).document
    expect(list.querySelectorAll('tbody tr')).toHaveLength(1)
    expect(list.querySelectorAll('tbody a[href^="mailto:"]')).toHaveLength(0)
  })
})
