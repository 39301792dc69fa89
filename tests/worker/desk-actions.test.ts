// Each desk action as the post its button makes, the retention run, and the desk under pressure (two
// operators, the operator's command during an attempt, reply links that add no recipient).
import { describe, expect, test } from 'vitest'
import { TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { parseHtml, textOf } from './support/html'
import { follow, linkTo, postForm, pressButton } from './support/http'
import { enquiriesCommand } from './support/operator'

const { persistTo, stand, worker, asOperator, page, rowsOf, sent, failedOnce, press } = deskUnderTest()

describe('actions, as the posts their buttons make', () => {
  test('mark handled, without JavaScript: 303 back to the enquiry with the flash, one log line naming the operator by Access’s ID', async () => {
    const values = enquiry('desk-handled', {
      name: `Handled ${crypto.randomUUID().slice(0, 8)}`,
      message: 'Secret plans.',
    })
    const row = await sent(values)
    const headers = await asOperator()
    const detail = (await page(`/admin/enquiries/${row.id}`)).document
    const pressed = await pressButton(worker, detail, 'Mark handled', {}, { headers })
    expect(pressed.status).toBe(303)
    const after = parseHtml(await (await follow(worker, pressed, undefined, headers)).text())
    expect(textOf(after.querySelector('[role="status"]'))).toContain('Marked handled')
    expect(textOf(after.body)).toContain(`by ${TEST_OPERATOR}`)
    expect([...after.querySelectorAll('button')].map(textOf)).not.toContain('Mark handled')
    expect(await rowsOf(values.email)).toEqual([
      expect.objectContaining({ status: 'handled', handledBy: TEST_OPERATOR }),
    ])
    const listed = (await page(`/admin?status=handled&q=${encodeURIComponent(values.name)}`)).document
    expect(
      [...listed.querySelectorAll('tbody tr')].map(textOf).filter((text) => text.includes(values.name)),
    ).toHaveLength(1)

    const lines = await worker.logged((line) => line.action === 'handled' && line.enquiryId === row.id)
    expect(lines[0]).toMatchObject({ operator: TEST_OPERATOR_ID, enquiryId: row.id, result: 'handled' })
    const text = JSON.stringify(lines[0])
    for (const secret of [values.message, values.email, values.name, TEST_OPERATOR]) expect(text).not.toContain(secret)
  })

  test('retry delivery now: a failed first attempt, then the retry delivers it, once; a retry of a delivered one sends nothing', async () => {
    const { values, row } = await failedOnce('desk-retry')
    stand.forms.setScenario(values.email, { kind: 'success' })
    const detail = (await page(`/admin/enquiries/${row.id}`)).document
    expect(textOf(detail.querySelectorAll('table tr')[1])).toContain('upstream_status')
    expect(await press('retry', row.id)).toBe('delivered')
    expect(await rowsOf(values.email)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })])
    expect(stand.forms.from(values.email)).toHaveLength(2)
    const after = (await page(`/admin/enquiries/${row.id}?flash=delivered`)).document
    expect(textOf(after.querySelector('[role="status"]'))).toContain('Delivered now.')
    expect(after.querySelectorAll('table tr')).toHaveLength(3)
    expect([...after.querySelectorAll('button')].map(textOf)).not.toContain('Retry delivery now')

    // Delivered: a retry posted anyway sends nothing.
    const again = await postForm(
      worker,
      '/admin/actions',
      { action: 'retry', id: row.id },
      { headers: await asOperator() },
    )
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe(`/admin/enquiries/${row.id}?flash=not-retried`)
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(2)
  })

  test('a held enquiry is not delivered by the scheduled run; released, it is delivered once', async () => {
    const { values, row } = await failedOnce('desk-held')
    await worker.exec(
      `UPDATE enquiries SET status = 'held', held_reason = 'turnstile_missing', next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE id = '${row.id}'`,
    )
    stand.forms.setScenario(values.email, { kind: 'success' })
    await worker.cron()
    expect(await rowsOf(values.email)).toEqual([expect.objectContaining({ status: 'held', attempts: 1 })])
    expect(stand.forms.from(values.email)).toHaveLength(1)

    const detail = (await page(`/admin/enquiries/${row.id}`)).document
    expect(textOf(detail.body)).toContain('turnstile_missing')
    const buttons = [...detail.querySelectorAll('button')].map(textOf)
    expect(buttons).not.toContain('Retry delivery now')
    expect(buttons).toContain('Release and deliver')
    expect(await press('release', row.id)).toBe('delivered')
    expect(await rowsOf(values.email)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })])
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(2)
  })

  test('erase, after a confirmation step: gone from the desk, the CSV and the database, history included', async () => {
    const values = enquiry('desk-erase', { name: `Erase ${crypto.randomUUID().slice(0, 8)}` })
    const row = await sent(values)
    const detail = (await page(`/admin/enquiries/${row.id}`)).document
    const confirm = (await page(linkTo(detail, 'Erase…'))).document
    expect(textOf(confirm.querySelector('h1'))).toBe(`Erase the enquiry from ${values.name}?`)
    expect(linkTo(confirm, 'Cancel')).toBe(`/admin/enquiries/${row.id}`)
    // A post without the confirmation leads to the confirmation page and deletes nothing.
    const unconfirmed = await postForm(
      worker,
      '/admin/actions',
      { action: 'erase', id: row.id },
      { headers: await asOperator() },
    )
    expect(unconfirmed.headers.get('location')).toBe(`/admin/erase/${row.id}`)
    expect(await rowsOf(values.email)).toHaveLength(1)

    const erased = await pressButton(worker, confirm, 'Erase permanently', {}, { headers: await asOperator() })
    expect(erased.headers.get('location')).toBe('/admin?flash=erased')
    expect(await rowsOf(values.email)).toHaveLength(0)
    expect(await worker.sql('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?', row.id)).toEqual([])
    expect(
      textOf(
        (await page(`/admin?q=${encodeURIComponent(values.name)}`)).document.querySelector(
          '[data-testid="list-count"]',
        ),
      ),
    ).toBe('No enquiries.')
    const csv = await (await worker.fetch('/admin/export.csv', { headers: await asOperator() })).text()
    expect(csv).not.toContain(values.name)
    expect(csv).not.toContain(values.email)
    expect((await worker.fetch(`/admin/enquiries/${row.id}`, { headers: await asOperator() })).status).toBe(404)
    await worker.logged((line) => line.action === 'erase' && line.enquiryId === row.id && line.result === 'erased')
  })

  test('retention: a scheduled run deletes enquiries older than the period, and keeps the rest', async () => {
    const old = enquiry('desk-old')
    const recent = enquiry('desk-recent')
    const oldRow = await sent(old)
    await sent(recent)
    // Received 731 days ago: past the 730 days the privacy page states.
    const longAgo = new Date(Date.now() - 731 * 86_400_000).toISOString()
    await worker.exec(`UPDATE enquiries SET received_at = '${longAgo}' WHERE id = '${oldRow.id}'`)
    await worker.cron()
    expect(await rowsOf(old.email)).toEqual([])
    expect(await rowsOf(recent.email)).toHaveLength(1)
    await worker.logged((line) => line.event === 'retention' && line.retentionDays === 730)
  })
})

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
