/**
 * The enquiry record: every accepted enquiry is in D1 before anything else happens, nothing is
 * acknowledged that is not stored, and delivery is retried until it succeeds or is given up on,
 * with the operator told. The form's own handling of a failure is tests/e2e/contact.spec.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import { site as company } from '../../app/site'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile, TEST_ACCESS_KEY } from './support/fixtures'
import { contactFields, contactStatus, parseHtml } from './support/html'
import { follow, postForm, serverFnAnswer, submitContact } from './support/http'

const stand = standInsForFile()

const statusOf = (site: { sql: <T>(q: string, ...p: unknown[]) => Promise<T[]> }, email: string) =>
  site.sql<{ id: string; status: string; attempts: number; lastCause: string | null; deliveredBy: string | null }>(
    'SELECT id, status, attempts, last_cause AS lastCause, delivered_by AS deliveredBy FROM enquiries WHERE email = ?',
    email,
  )

describe('when the enquiry cannot be stored', () => {
  // A database without its schema: every write fails inside D1, as an outage would.
  const worker = siteUnderTest(() => ({ vars: stand.production(), migrations: false }))

  test('the form’s call gets the failure message (503), nothing is sent, one log line without personal data', async () => {
    const values = enquiry('no-store', { message: 'Confidential: our budget.' })
    const answer = await submitContact(worker, values)
    expect(answer.status).toBe(503)
    expect(await serverFnAnswer(answer)).toMatchObject({ ok: false, error: 'not_stored', message: FAILURE_MESSAGE })
    expect(stand.forms.from(values.email)).toHaveLength(0)
    const lines = await worker.logged((l) => l.outcome === 'not_stored')
    expect(lines[0]).toMatchObject({ event: 'contact', cause: 'store_error' })
    const line = JSON.stringify(lines[0])
    for (const text of [values.email, values.name, values.message, values.company]) expect(line).not.toContain(text)
  })

  test('without JavaScript: the failure message, and the values rendered back into the form', async () => {
    const values = enquiry('no-store-nojs', { name: 'Zoë "Z" Ñúñez', message: 'నమస్కారం\nPlease call.' })
    const post = await postForm(worker, '/api/contact', { ...values })
    expect(post.status).toBe(303)
    const page = parseHtml(await (await follow(worker, post)).text())
    expect(contactStatus(page)).toContain(FAILURE_MESSAGE)
    expect(contactStatus(page)).not.toContain(SUCCESS_MESSAGE)
    expect(contactFields(page)).toEqual(values)
    expect(stand.forms.from(values.email)).toHaveLength(0)
  })
})

describe('a secret missing, then set; attempts exhausted', () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'worker-record-'))
  afterAll(() => rmSync(persistTo, { recursive: true, force: true }))
  const common = () => ({
    CONTACT_DELIVERY: 'form-service',
    CONTACT_FORM_ENDPOINT: stand.forms.url,
    // Each retry is due at once, so scheduled runs walk an enquiry through all its attempts.
    CONTACT_RETRY_DELAYS: '0,0',
    CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
  })
  const worker = siteUnderTest(() => ({ vars: common(), persistTo }))

  test('without the key the enquiry is stored and waits, every scheduled run names the missing secret; once the key is set, the next run delivers it once', async () => {
    const waiting = enquiry('waiting')
    const answer = await submitContact(worker, waiting)
    expect(answer.status).toBe(200)
    expect(await serverFnAnswer(answer)).toEqual({ ok: true })
    expect(await statusOf(worker, waiting.email)).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })])

    await worker.cron()
    await worker.cron()
    const config = await worker.logged((l) => l.event === 'contact_config' && l.pending !== undefined, 2)
    expect(config[0]).toMatchObject({ missing: 'CONTACT_FORM_ACCESS_KEY', pending: 1 })
    expect(stand.forms.from(waiting.email)).toHaveLength(0)
    expect(await statusOf(worker, waiting.email)).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })])

    // The operator sets the key: the Worker starts again with it, the database as it was.
    await worker.restart({ ...common(), CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY })
    await worker.cron()
    expect(await statusOf(worker, waiting.email)).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1, deliveredBy: 'form-service' }),
    ])
    await worker.cron()
    expect(stand.forms.from(waiting.email)).toHaveLength(1)
  })

  test('after the last attempt the enquiry is failed, one gave_up line is logged, and the company mailbox is told by e-mail', async () => {
    await worker.restart({ ...common(), CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY })
    const values = enquiry('gave-up')
    stand.forms.setScenario(values.email, { kind: 'status', status: 503 })
    expect((await submitContact(worker, values)).status).toBe(200)
    await expect
      .poll(() => statusOf(worker, values.email))
      .toEqual([expect.objectContaining({ status: 'pending', attempts: 1 })])
    await worker.cron()
    expect(await statusOf(worker, values.email)).toEqual([expect.objectContaining({ status: 'pending', attempts: 2 })])
    await worker.cron()
    const [row] = await statusOf(worker, values.email)
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastCause: 'upstream_status' })
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(3)

    const gaveUp = await worker.logged((l) => l.outcome === 'gave_up' && l.enquiryId === row?.id)
    expect(gaveUp[0]).toMatchObject({ event: 'contact', cause: 'upstream_status', attempt: 3, notified: true })
    for (const text of [values.email, values.name, values.message])
      expect(JSON.stringify(gaveUp[0])).not.toContain(text)

    // The send_email binding took one message, to the company.
    await expect.poll(() => worker.mails().length).toBe(1)
    const [mail] = worker.mails()
    expect(mail?.raw).toMatch(new RegExp(`^To: "${company.name}" <${company.email}>`, 'm'))
    expect(mail?.text).toContain(row?.id)
    expect(mail?.text).toContain('after 3 attempts')
    expect(mail?.text).toContain(values.message)
  })
})
