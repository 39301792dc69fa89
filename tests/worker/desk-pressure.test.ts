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
    // An attempt under way, as one in a Worker cut off mid-send leaves it: its token, its lease's end.
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

  test('reply links: no address can add a recipient or a header to the operator’s reply; the list shows addresses as text', async () => {
    /** Addresses the form accepts (a browser's type="email" does), and the reply link each gets. */
    const MAILTO: [string, string][] = [
      [
        'sales%40client.example?bcc=spy%40evil.example&x=',
        'sales%2540client.example%3Fbcc%3Dspy%2540evil.example%26x%3D',
      ],
      ['a?cc=spy', 'a%3Fcc%3Dspy'],
      ['x&bcc=spy', 'x%26bcc%3Dspy'],
      ['100%25off', '100%2525off'],
      ['to=spy', 'to%3Dspy'],
      ['first.last+tag', 'first.last%2Btag'],
    ]
    const domain = `t${crypto.randomUUID().slice(0, 8)}.a.co`
    for (const [local, encoded] of MAILTO) {
      const address = `${local}@${domain}`
      const row = await sent(enquiry('fence-mailto', { email: address, name: `Mailto ${local}` }))
      const link = (await page(`/admin/enquiries/${row.id}`)).document.querySelector('[data-testid="reply-address"]')
      expect(textOf(link)).toBe(address)
      const href = link?.getAttribute('href') ?? ''
      expect(href, address).toBe(`mailto:${encoded}@${domain}`)
      // The link as a browser reads it (the WHATWG URL parser): no query, no fragment, one address.
      const url = new URL(href)
      expect(
        {
          protocol: url.protocol,
          search: url.search,
          hash: url.hash,
          params: [...url.searchParams.keys()],
          to: decodeURIComponent(url.pathname),
        },
        address,
      ).toEqual({ protocol: 'mailto:', search: '', hash: '', params: [], to: address })
    }
    const list = (await page(`/admin?q=${encodeURIComponent(domain)}`)).document
    expect(list.querySelectorAll('tbody tr')).toHaveLength(MAILTO.length)
    expect(list.querySelectorAll('tbody a[href^="mailto:"]')).toHaveLength(0)
  })
})
