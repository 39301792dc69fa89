// Early access in the desk (docs/desk.md): its page, export, digest lines, subscriber webhooks, erasure.
import { readFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020'
import { expect, test } from 'vitest'
import { TURNSTILE_FIELD } from '../../app/contact/turnstile'
import { uniqueEmail } from '../support/values'
import { parseHtml, textOf } from './support/html'
import { follow, postForm } from './support/http'
import { linkIn } from './support/mail'
import { webhooksUnderTest } from './support/webhooks'

const { hooks, worker, asOperator, signed, slack, press } = webhooksUnderTest({
  EARLY_ACCESS_FROM: 'updates@aksharalabs.in',
  EARLY_ACCESS_LINK_SECRET: 'worker-early-access-desk-secret-0123456789abcdef',
  DIGEST_HOUR_UTC: '0',
})
const validate = new Ajv2020({ validateFormats: false }).compile(
  JSON.parse(readFileSync('docs/webhook-payload.schema.json', 'utf8')),
)

const entryOf = async (email: string) =>
  (await worker.sql<{ id: string; state: string }>('SELECT id, state FROM early_access WHERE email = ?', email))[0]
const deskGet = async (path: string, site = 'same-origin') =>
  worker.fetch(path, { headers: { ...(await asOperator()), 'Sec-Fetch-Site': site }, redirect: 'manual' })
const audit = (action: string) =>
  worker.sql<{ enquiry_id: string | null; detail: string }>(
    'SELECT enquiry_id, detail FROM audit_log WHERE action = ?',
    action,
  )

/** Signs up and confirms as the visitor does (the panel's post, then Confirm on the link's page). */
async function confirmed(label: string) {
  const email = uniqueEmail(label)
  const fields = { email, website: '', [TURNSTILE_FIELD]: `pass-${crypto.randomUUID()}` }
  expect((await postForm(worker, '/api/early-access', fields)).status).toBe(303)
  const mail = () => worker.mails().find((one) => one.to.includes(email))
  await expect.poll(mail).toBeDefined()
  const confirm = linkIn(mail(), '/early-access/confirm')
  expect((await postForm(worker, '/api/early-access/confirm', Object.fromEntries(confirm.searchParams))).status).toBe(
    303,
  )
  const id = (await entryOf(email))?.id as string
  await expect.poll(() => signed(id, 'subscriber.confirmed').length).toBe(1)
  return { email, id, leave: linkIn(mail(), '/early-access/leave') }
}

test('confirmed and left reach each endpoint signed and verified, Slack without the address; a replay keeps its id', async () => {
  const { email, id, leave } = await confirmed('hooks-sub')
  const [event] = signed(id, 'subscriber.confirmed')
  expect(event?.verified).toBe(true)
  expect(validate(event?.json), JSON.stringify(validate.errors)).toBe(true)
  expect(event?.json).toEqual({
    type: 'subscriber.confirmed',
    timestamp: expect.any(String),
    data: { id, email, confirmedAt: expect.any(String), consentVersion: 'v1', leftAt: null },
  })
  await expect.poll(() => slack('Someone signed up for early access').length).toBe(1)

  // A mail client's one-click leave (RFC 8058): no Origin, no cookie.
  const out = await worker.fetch(`/api/early-access/leave${leave.search}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  })
  expect(out.status).toBe(200)
  await expect.poll(() => signed(id, 'subscriber.left').length).toBe(1)
  const [left] = signed(id, 'subscriber.left')
  expect(left?.verified).toBe(true)
  expect(validate(left?.json)).toBe(true)
  expect(left?.json).toMatchObject({ data: { id, email, leftAt: expect.any(String) } })
  await expect.poll(() => slack('Someone left the early access list').length).toBe(1)
  expect(hooks.receiver.received.filter((one) => one.path === '/slack' && one.body.includes(email))).toEqual([])

  // The operator's Replay: the same webhook-id again, an audit line that names no entry.
  expect(await press('replay-subscriber', { id: '', event: event?.id as string })).toBe('replayed')
  expect(signed(id, 'subscriber.confirmed').map((one) => one.id)).toEqual([event?.id, event?.id])
  expect(await audit('replay-subscriber')).toEqual([
    { enquiry_id: null, detail: 'subscriber.confirmed to crm, was delivered' },
  ])
})

test('erasure by person: the entry in their JSON, then erased with its subscriber.erased, the id only', async () => {
  const { email, id } = await confirmed('hooks-forget')
  const json = await (await deskGet(`/admin/person/export.json?email=${encodeURIComponent(email)}`)).json()
  expect((json as { earlyAccess: unknown }).earlyAccess).toMatchObject({
    id,
    email,
    state: 'confirmed',
    consentVersion: 'v1',
  })

  const page = parseHtml(await (await deskGet(`/admin/person/erase?email=${encodeURIComponent(email)}`)).text())
  expect(page.querySelector('input[name="entry"]')?.getAttribute('value')).toBe(id)
  expect(await press('erase-person', { email, ids: '', entry: id, confirm: 'person' })).toBe('person-erased')
  expect(await entryOf(email)).toBeUndefined()
  expect(await audit('person-erase')).toEqual([{ enquiry_id: null, detail: 'on request, 0 enquiries, early access' }])

  await worker.cron()
  const [erased] = signed(id, 'subscriber.erased')
  expect(erased?.verified).toBe(true)
  expect(erased?.json).toEqual({ type: 'subscriber.erased', timestamp: expect.any(String), data: { id } })
  expect(validate(erased?.json)).toBe(true)
  expect(slack('An early access entry was erased')).toHaveLength(1)
  expect(await worker.sql('SELECT type FROM webhook_events WHERE enquiry_id = ?', id)).toEqual([
    { type: 'subscriber.erased' },
    { type: 'subscriber.erased' },
  ])
})

test('the page counts each state; the CSV export is a guarded effect with its audit line; the digest counts the day', async () => {
  // The digest's day is this test's own: tomorrow, after any digest hour; its moves an hour before.
  const at = new Date(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T23:00:00.000Z`)
  const now = new Date(at.getTime() - 3_600_000).toISOString()
  const rows = [
    ['pending', null, null, null],
    ['pending', null, null, now],
    ['confirmed', '2026-01-02T00:00:00.000Z', null, null],
    ['confirmed', now, null, null],
    ['left', now, now, null],
  ] as const
  for (const [i, [state, confirmedAt, leftAt, failed]] of rows.entries())
    await worker.sql(
      `INSERT INTO early_access (id, email, address_key, state, consent_version, signed_up_at, confirmed_at, left_at, mail_failed_at)
       VALUES (?, ?, ?, ?, 'v1', ?, ?, ?, ?)`,
      `ea-${String(i).padStart(32, '0')}`,
      `count-${i}@example.com`,
      `count-${i}@example.com`,
      state,
      now,
      confirmedAt,
      leftAt,
      failed,
    )

  const page = parseHtml(await (await deskGet('/admin/early-access', 'cross-site')).text())
  const count = (id: string) => textOf(page.querySelector(`[data-count="${id}"]`))
  expect([count('pending'), count('confirmed'), count('left'), count('mail-failed')]).toEqual(['2', '2', '1', '1'])
  expect(page.querySelectorAll('tr[data-entry]')).toHaveLength(rows.length)
  expect(textOf(page.querySelector('nav[aria-label="Desk"] [aria-current="page"]'))).toBe('Early access')

  // From another site: the confirmation page, nothing exported, no audit line.
  const away = await deskGet('/admin/early-access.csv', 'cross-site')
  expect(away.headers.get('location')).toBe(`/admin/confirm?to=${encodeURIComponent('/admin/early-access.csv')}`)
  const confirmPage = parseHtml(await (await follow(worker, away, undefined, await asOperator())).text())
  expect(textOf(confirmPage.querySelector('[data-testid="confirm-effect"]'))).toMatch(/confirmed early access list/)
  expect(await audit('early-access-export')).toEqual([])

  const csv = await deskGet('/admin/early-access.csv')
  expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="early-access-confirmed-/)
  expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.arrayBuffer())).toBe(
    `\uFEFF"Email Address","Confirmed at","Consent version"\r\n"count-2@example.com","2026-01-02T00:00:00.000Z","v1"\r\n"count-3@example.com","${now}","v1"\r\n`,
  )
  expect(await audit('early-access-export')).toEqual([{ enquiry_id: null, detail: 'confirmed' }])

  await worker.cron(at)
  const digest = () => worker.mails().find((mail) => mail.subject.startsWith(`Enquiries ${now.slice(0, 10)}`))
  await expect.poll(digest).toBeDefined()
  expect(digest()?.text).toMatch(/^Early access confirmed, 24 h\s+2\s+https:\S+\/admin\/early-access$/m)
  expect(digest()?.text).toMatch(/^Early access left, 24 h\s+1\s/m)
})
