/**
 * The operator's desk at /admin as the Worker answers it, behind the stand-in Cloudflare Access
 * key server on 127.0.0.1 (the same token check as in production, with tokens signed here): the
 * 403 for every page and action without a valid token, the list's pages, the CSV, each action as
 * the post its button makes, the retention run, and the desk under pressure (two operators at
 * once, the operator's command during an attempt, reply links, cross-site posts). The pages in a
 * browser (search, filters, hydration, keyboard, axe) are tests/e2e/desk-enquiries.spec.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { EnquiryRecord } from '../../app/ledger/record'
import { TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'
import { type Enquiry, enquiry } from '../support/values'
import { siteUnderTest, standInsForFile, TEST_ACCESS_KEY } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { follow, linkTo, postForm, pressButton, sendEnquiry, TYPED } from './support/http'
import { enquiriesCommand } from './support/operator'

const persistTo = mkdtempSync(join(tmpdir(), 'worker-desk-'))
afterAll(() => rmSync(persistTo, { recursive: true, force: true }))

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production(), persistTo }))

const token = () => stand.keys.sign({ expiresIn: 4 * 3600 })
const asOperator = async () => ({ 'Cf-Access-Jwt-Assertion': await token(), ...TYPED })
const page = async (path: string) => {
  const response = await worker.fetch(path, { headers: await asOperator() })
  return { response, document: parseHtml(await response.text()) }
}

type Row = Pick<EnquiryRecord, 'id' | 'status' | 'attempts' | 'handledBy' | 'nextAttemptAt'>
const rowsOf = (email: string) =>
  worker.sql<Row>(
    `SELECT id, status, attempts, handled_by AS handledBy, next_attempt_at AS nextAttemptAt FROM enquiries WHERE email = ?`,
    email,
  )

/** Sends an enquiry as the form does, and waits until its first attempt is over. */
async function sent(values: Enquiry, status = 'delivered'): Promise<Row> {
  await sendEnquiry(worker, values, status)
  return (await rowsOf(values.email))[0] as Row
}

/** A pending enquiry whose first attempt failed (the form service answered 503). */
async function failedOnce(label: string) {
  const values = enquiry(label, { name: `${label} ${crypto.randomUUID().slice(0, 8)}` })
  stand.forms.setScenario(values.email, { kind: 'status', status: 503 })
  const row = await sent(values, 'pending')
  expect(stand.forms.from(values.email)).toHaveLength(1)
  const [first] = await worker.sql('SELECT attempt, outcome, cause FROM enquiry_attempts WHERE enquiry_id = ?', row.id)
  expect(first).toEqual({ attempt: 1, outcome: 'failed', cause: 'upstream_status' })
  return { values, row }
}

/** An operator's press of an action button: the form post the page makes; the flash it leads to. */
async function press(action: string, id: string, extra: Record<string, string> = {}): Promise<string | null> {
  const answer = await postForm(worker, '/admin/actions', { action, id, ...extra }, { headers: await asOperator() })
  expect(answer.status).toBe(303)
  return new URL(answer.headers.get('location') ?? '', worker.origin).searchParams.get('flash')
}

const deskLines = (action: string) => worker.logs().filter((line) => line.event === 'admin' && line.action === action)

describe('Access: fails closed', () => {
  test('without a valid token every /admin page and every action answers 403, never 404, with nothing from the desk', async () => {
    const values = enquiry('desk-guard', { name: 'Guarded Person' })
    const row = await sent(values)
    const bad: [string, Record<string, string>][] = [
      ['no header', {}],
      ['garbage', { 'Cf-Access-Jwt-Assertion': 'garbage' }],
      ['wrong signature', { 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ foreignKey: true }) }],
      ['wrong audience', { 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ aud: 'another-app' }) }],
      [
        'wrong issuer',
        { 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ iss: 'https://other.cloudflareaccess.com' }) },
      ],
      ['expired', { 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ expiresIn: -60 }) }],
      ['not yet valid', { 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ notBeforeIn: 600 }) }],
    ]
    const pages = [
      '/admin',
      '/admin/',
      `/admin/enquiries/${row.id}`,
      `/admin/erase/${row.id}`,
      '/admin/export.csv',
      '/admin/activity',
      '/admin/person',
      '/admin/sources',
      '/admin/setup',
      '/admin/no-such-page',
      '/Admin',
    ]
    for (const [label, headers] of bad) {
      for (const path of pages) {
        const answer = await worker.fetch(path, { headers })
        expect(answer.status, `${label} ${path}`).toBe(403)
        expect(answer.headers.get('cache-control'), `${label} ${path}`).toContain('no-store')
        const body = await answer.text()
        expect(body).not.toContain(values.name)
        expect(body).not.toContain(values.email)
      }
      for (const action of ['handled', 'retry', 'release', 'erase']) {
        const answer = await postForm(worker, '/admin/actions', { action, id: row.id, confirm: row.id }, { headers })
        expect(answer.status, `${label} ${action}`).toBe(403)
      }
    }
    // Nothing changed.
    expect(await rowsOf(values.email)).toEqual([
      expect.objectContaining({ id: row.id, status: 'delivered', handledBy: null }),
    ])

    // A valid token: the pages open, and a path that does not exist is 404.
    expect((await worker.fetch('/admin', { headers: await asOperator() })).status).toBe(200)
    expect((await worker.fetch('/admin/no-such-page', { headers: await asOperator() })).status).toBe(404)

    await expect.poll(() => worker.logs().filter((line) => line.event === 'admin_denied').length).toBeGreaterThan(0)
    const denied = worker.logs().filter((line) => line.event === 'admin_denied')
    expect(JSON.stringify(denied)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./)
  })

  test('a cross-site post to /admin/actions with a valid Access token gets 403 and changes nothing', async () => {
    const values = enquiry('fence-csrf', { name: `CSRF ${crypto.randomUUID().slice(0, 8)}` })
    const row = await sent(values)
    // Access adds the token to every request to the site, one a page elsewhere makes included.
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://preview.aksharalabs.in' },
      { Referer: 'https://evil.example/page' },
    ]
    for (const headers of crossSite) {
      for (const action of ['handled', 'erase', 'retry']) {
        const refused = await postForm(
          worker,
          '/admin/actions',
          { action, id: row.id, confirm: row.id },
          { origin: null, headers: { ...(await asOperator()), ...headers } },
        )
        expect(refused.status, `${JSON.stringify(headers)} ${action}`).toBe(403)
        if (headers.Origin === 'https://evil.example' && action === 'erase')
          expect(await refused.json()).toMatchObject({ error: 'cross_site_request' })
      }
    }
    // The enquiry is as it was: delivered, not handled, not erased, sent once.
    expect(await rowsOf(values.email)).toEqual([
      expect.objectContaining({ id: row.id, status: 'delivered', handledBy: null, attempts: 1 }),
    ])
    expect(stand.forms.from(values.email)).toHaveLength(1)
    await worker.settled()
    expect(worker.logs().filter((line) => line.event === 'admin' && line.enquiryId === row.id)).toEqual([])
  })
})

describe('the list and the CSV', () => {
  test('newest first, never cached or indexed, the delivery set-up shown to operators on its own page, a wildcard taken literally, 25 a page', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const first = enquiry('desk-list', { name: `Asha ${tag}`, company: `Rao ${tag} Textiles` })
    const second = enquiry('desk-list', { name: `Bharat ${tag}`, message: `Please call.\nWe have 12 sites. ${tag}` })
    await sent(first)
    await sent(second)

    const { response, document } = await page(`/admin?q=${tag}`)
    expect(response.headers.get('cache-control')).toContain('no-store')
    expect(response.headers.get('x-robots-tag')).toContain('noindex')
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/)
    expect(textOf(document.querySelector('h1'))).toBe('Enquiries')
    const names = (d: Document) => [...d.querySelectorAll('tbody tr td:nth-child(2)')].map(textOf)
    expect(names(document)).toEqual([second.name, first.name])
    // The desk names in one line only what is missing (here: who may open it, beyond Access's
    // policy); the set-up is shown to operators on its own page (and not to the world at /api/health).
    expect(textOf(document.querySelector('[data-testid="setup-gaps"]'))).toBe(
      'Set-up: no allow-list, nor a reason for the Access policy alone. See the set-up',
    )
    const setupPage = (await page('/admin/setup')).document
    expect(textOf(setupPage.querySelector('h1'))).toBe('Set-up')
    const setup = (id: string) => textOf(setupPage.querySelector(`[data-testid="${id}"]`))
    expect(setup('setup-delivery')).toBe('form-service')
    expect(setup('setup-missing')).toContain('nothing')
    expect(setup('setup-rate-limiter')).toBe('bound')
    expect(document.documentElement.outerHTML).not.toContain(TEST_ACCESS_KEY)
    expect(setupPage.documentElement.outerHTML).not.toContain(TEST_ACCESS_KEY)

    // By company; by status; a wildcard is literal.
    expect(names((await page('/admin?q=Textiles')).document)).toEqual([first.name])
    expect(
      textOf((await page(`/admin?q=${tag}&status=failed`)).document.querySelector('[data-testid="list-count"]')),
    ).toBe('No enquiries.')
    expect(names((await page(`/admin?q=${tag}&status=delivered`)).document)).toEqual([second.name, first.name])
    expect(
      textOf(
        (await page(`/admin?q=${encodeURIComponent(`%${tag}`)}`)).document.querySelector('[data-testid="list-count"]'),
      ),
    ).toBe('No enquiries.')

    // The detail: the whole message and the delivery history, no retry for a delivered one.
    const detail = (await page(linkTo((await page(`/admin?q=${tag}`)).document, second.name))).document
    expect(detail.querySelector('[data-testid="message"]')?.textContent).toBe(second.message)
    const history = [...detail.querySelectorAll('table tr')].map(textOf)
    expect(history).toHaveLength(2)
    expect(history[1]).toContain('form-service')
    expect(history[1]).toContain('delivered')
    expect([...detail.querySelectorAll('button')].map(textOf)).not.toContain('Retry delivery now')

    // Paging: 25 a page, the search kept in the pager's links.
    const rows = Array.from(
      { length: 27 },
      (_, i) =>
        `('page-${i}', 'page-${i}', '2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z', 'Paged ${tag} ${i}', 'paged@example.com', '', 'general', 'x', 'handled')`,
    )
    await worker.exec(
      `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status) VALUES ${rows.join(', ')}`,
    )
    const html = await (await worker.fetch(`/admin?q=Paged%20${tag}`, { headers: await asOperator() })).text()
    expect(html).toContain('1–25 of 27')
    expect(html).toContain(`Paged ${tag} 26`)
    expect(html).not.toContain(`Paged ${tag} 1<`)
    expect(html).toContain('Page <!-- -->1<!-- --> of <!-- -->2')
    expect(html).toMatch(/<a href="\/admin\?[^"]*page=2[^"]*"[^>]*rel="next">Older<\/a>/)
    expect(html).not.toContain('rel="prev"')
    const page2 = await (await worker.fetch(`/admin?q=Paged%20${tag}&page=2`, { headers: await asOperator() })).text()
    expect(page2).toContain('26–27 of 27')
    expect(page2).toContain(`Paged ${tag} 1<`)
    expect(page2).toContain(`Paged ${tag} 0<`)
    expect(page2).toMatch(/<a href="\/admin\?[^"]*"[^>]*rel="prev">Newer<\/a>/)
    expect(page2).not.toContain('rel="next"')
  })

  test('the CSV export holds the current filter, as UTF-8 with formula cells neutralised', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const risky = enquiry('desk-csv', {
      name: `=cmd() ${tag}`,
      company: `@SUM(1) ${tag}`,
      message: 'నమస్కారం, "quoted"',
    })
    const other = enquiry('desk-csv', { name: `Plain ${tag}` })
    await sent(risky)
    await sent(other)

    const answer = await worker.fetch(`/admin/export.csv?q=${encodeURIComponent(`=cmd() ${tag}`)}`, {
      headers: await asOperator(),
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="enquiries-[\d-]+\.csv"$/)
    expect(answer.headers.get('cache-control')).toContain('no-store')
    const bytes = Buffer.from(await answer.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const csv = bytes.subarray(3).toString('utf8')
    const lines = csv.split('\r\n')
    expect(lines[0]).toMatch(/^"ID","Received","Status","Name","E-mail","Company"/)
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain(`"'=cmd() ${tag}"`)
    expect(lines[1]).toContain(`"'@SUM(1) ${tag}"`)
    expect(lines[1]).toContain('"నమస్కారం, ""quoted"""')
    expect(csv).not.toContain(other.name)

    // The operator by Access's ID for them, never by e-mail.
    await expect.poll(() => deskLines('export').at(-1)).toMatchObject({ operator: TEST_OPERATOR_ID, rows: 1 })
    expect(JSON.stringify(deskLines('export'))).not.toContain(TEST_OPERATOR)
  })
})

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
  test('two operators pressing Retry at the same moment: the form service gets the enquiry once', async () => {
    const { values, row } = await failedOnce('fence-twice')
    const [first] = await worker.sql('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?', row.id)
    // The service is back, and slow: the first press is still sending when the second arrives.
    stand.forms.setScenario(values.email, { kind: 'slow', delayMs: 3_000 })
    const notices = await Promise.all([press('retry', row.id), press('retry', row.id)])

    // Exactly one more forward, whoever won.
    expect(stand.forms.from(values.email)).toHaveLength(2)
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(2)
    // One attempt and one "busy" (or, had the second press come after the first finished, "not sent again").
    expect([
      ['busy', 'delivered'],
      ['delivered', 'not-retried'],
    ]).toContainEqual([...notices].sort())
    expect(await rowsOf(values.email)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })])
    // The first attempt's history row is intact; the second is its own row.
    expect(await worker.sql('SELECT * FROM enquiry_attempts WHERE enquiry_id = ? ORDER BY attempt', row.id)).toEqual([
      first,
      expect.objectContaining({ attempt: 2, outcome: 'delivered', cause: null }),
    ])

    // What the operator who lost the race sees.
    const busy = (await page(`/admin/enquiries/${row.id}?flash=busy`)).document
    expect(textOf(busy.querySelector('[role="status"]'))).toBe(
      'Another delivery attempt is under way; look again in a minute.',
    )

    // The action lines name the operator by Access's ID, never by e-mail.
    const lines = await worker.logged(
      (line) => line.event === 'admin' && line.enquiryId === row.id && line.action === 'retry',
      2,
    )
    expect(lines.map((line) => line.operator)).toEqual([TEST_OPERATOR_ID, TEST_OPERATOR_ID])
    expect(JSON.stringify(lines)).not.toContain(TEST_OPERATOR)
  })

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
    // The desk's Retry says the same.
    expect(await press('retry', row.id)).toBe('busy')
    expect(stand.forms.from(values.email)).toHaveLength(1)

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

describe('a set-up with gaps', () => {
  const gapped = siteUnderTest(() => ({
    vars: stand.production({ CONTACT_FORM_ACCESS_KEY: '', TURNSTILE_SITE_KEY: '1x00000000000000000000AA' }),
  }))

  test('the desk names what is missing in one line that links to the set-up, which says the same in full', async () => {
    const headers = await asOperator()
    const desk = parseHtml(await (await gapped.fetch('/admin', { headers })).text())
    const line = desk.querySelector('[data-testid="setup-gaps"]')
    expect(textOf(line)).toBe(
      'Set-up: the delivery needs CONTACT_FORM_ACCESS_KEY; Turnstile needs TURNSTILE_SECRET_KEY; no allow-list, nor a reason for the Access policy alone. See the set-up',
    )
    expect(line?.querySelector('a')?.getAttribute('href')).toBe('/admin/setup')
    // The panel itself is no longer on the desk.
    expect(desk.querySelector('[data-testid="setup-delivery"]')).toBeNull()

    const setup = parseHtml(await (await gapped.fetch('/admin/setup', { headers })).text())
    expect(textOf(setup.querySelector('[data-testid="setup-missing"]'))).toBe('CONTACT_FORM_ACCESS_KEY')
    expect(textOf(setup.querySelector('[data-testid="setup-turnstile"]'))).toBe('off: TURNSTILE_SECRET_KEY is not set')
    expect(setup.querySelector('nav[aria-label="Desk"] a[aria-current="page"]')?.textContent).toBe('Set-up')
  })
})
