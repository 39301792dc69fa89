// Floods with Turnstile on and no rate-limit bindings: every post without a valid token is held.
import { expect, test } from 'vitest'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import { TURNSTILE_FIELD } from '../../app/contact/turnstile'
import { type Enquiry, enquiry, uniqueNetwork } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { contactFields, contactStatus, parseHtml, textOf } from './support/html'
import { follow, linkTo, postContact, postForm, pressButton } from './support/http'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.turnstile(), rateLimits: false }))

/** Held enquiries kept an hour from everyone (app/contact/limits.server.ts); a network's: tests/unit/held-enquiries. */
const HELD_CEILING_PER_HOUR = 50

const token = () => `pass-${crypto.randomUUID()}`
/** Posts the form as a client without JavaScript does, from `ip`; with `turnstile`, as if the widget had passed. */
const post = (ip: string, values: Enquiry, turnstile?: string) =>
  postContact(worker, { ...values, ...(turnstile ? { [TURNSTILE_FIELD]: turnstile } : {}) }, { ip })
const operator = async () => ({ 'Cf-Access-Jwt-Assertion': await stand.keys.sign() })
const page = async (path: string) => parseHtml(await (await worker.fetch(path, { headers: await operator() })).text())
const held = () =>
  worker.sql<{ id: string; email: string; heldReason: string; receivedAt: string }>(
    "SELECT id, email, held_reason AS heldReason, received_at AS receivedAt FROM enquiries WHERE status = 'held'",
  )
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()

/** Enquiries received at `at` (old or many rows at once), written into the test's database. */
async function insert(rows: [id: string, at: string, status: string, heldReason: string | null][]) {
  const values = rows.map(
    ([id, at, status, reason]) =>
      `('${id}', 'key-${id}', '${at}', 'Flood ${id}', '${id}@example.com', '', 'general', 'spam', '${status}', ${reason ? `'${reason}'` : 'NULL'})`,
  )
  await worker.exec(
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, held_reason) VALUES ${values.join(', ')}`,
  )
}

test('erase held enquiries in bulk — one reason’s, one day’s, then all — each after a confirmation step, without JavaScript', async () => {
  const [day2, day3] = [daysAgo(2), daysAgo(3)]
  await insert([
    ...[1, 2, 3].map(
      (i) => [`unverified-${i}`, day3, 'held', 'turnstile_unverified'] as [string, string, string, string],
    ),
    ...[1, 2, 3, 4].map((i) => [`invalid-${i}`, day2, 'held', 'turnstile_invalid'] as [string, string, string, string]),
    ['real', day2, 'delivered', null],
  ])
  const headers = await operator()

  // One reason's: the held view links to its confirmation page.
  const list = await page('/admin?status=held')
  expect([...list.querySelectorAll('h1, h2, h3, h4')].map(textOf)).toContain('Erase held enquiries')
  const confirm = await page(linkTo(list, 'Erase… the held as turnstile_unverified'))
  expect(textOf(confirm.querySelector('h1'))).toBe('Erase 3 held enquiries held as turnstile_unverified?')
  // Without the confirmation, a post only leads to this page, and erases nothing.
  const unconfirmed = await postForm(
    worker,
    '/admin/actions',
    { action: 'erase-held', reason: 'turnstile_unverified' },
    { headers },
  )
  expect(unconfirmed.status).toBe(303)
  expect(unconfirmed.headers.get('location')).toBe('/admin/erase-held?reason=turnstile_unverified')
  expect((await held()).filter((row) => row.heldReason === 'turnstile_unverified')).toHaveLength(3)
  const erased = await pressButton(worker, confirm, 'Erase permanently', {}, { headers })
  expect(erased.status).toBe(303)
  expect(erased.headers.get('location')).toBe('/admin?status=held&flash=held-erased')
  const after = parseHtml(await (await follow(worker, erased, undefined, headers)).text())
  expect(textOf(after.querySelector('[role="status"]'))).toContain('The held enquiries were erased')
  expect((await held()).filter((row) => row.heldReason === 'turnstile_unverified')).toHaveLength(0)
  expect((await held()).filter((row) => row.id.startsWith('invalid-'))).toHaveLength(4)

  // One day's: the held of that day go, a real enquiry of the same day stays.
  const day = day2.slice(0, 10)
  const ofDay = await page(linkTo(after, `Erase… the held of ${day}`))
  expect(textOf(ofDay.querySelector('h1'))).toBe(`Erase 4 held enquiries received on ${day} (UTC)?`)
  expect((await pressButton(worker, ofDay, 'Erase permanently', {}, { headers })).status).toBe(303)
  expect((await held()).filter((row) => row.receivedAt.startsWith(day))).toHaveLength(0)
  expect(await worker.sql('SELECT id FROM enquiries WHERE id = ?', 'real')).toHaveLength(1)

  // All of them: up to the newest the page counted. One held after the page was shown is kept.
  await insert([1, 2].map((i) => [`older-${i}`, daysAgo(5), 'held', 'turnstile_missing']))
  const all = await page(linkTo(await page('/admin?status=held'), 'Erase all 2 held…'))
  expect(textOf(all.querySelector('h1'))).toBe('Erase 2 held enquiries?')
  const later = enquiry('held-later')
  expect((await post(`${uniqueNetwork()}::1`, later)).status).toBe(200)
  expect((await pressButton(worker, all, 'Erase permanently', {}, { headers })).status).toBe(303)
  expect((await held()).map((row) => row.email)).toEqual([later.email])

  const lines = await worker.logged((line) => line.event === 'admin' && line.action === 'erase-held', 3)
  expect(lines).toEqual([
    expect.objectContaining({ reason: 'turnstile_unverified', day: 'all', erased: 3 }),
    expect.objectContaining({ reason: 'all', day, erased: 4 }),
    expect.objectContaining({ reason: 'all', day: 'all', erased: 2, result: 'held-erased' }),
  ])
  // Who acted is on each line as every desk action names its operator; never an enquiry's content.
  expect(lines.every((line) => typeof line.operator === 'string' && line.operator !== '')).toBe(true)
  expect(JSON.stringify(lines)).not.toContain('@example.com')
})

test(`the held ceiling: ${HELD_CEILING_PER_HOUR} held an hour in all; beyond, a visitor without a token is told it failed with every field kept, and one with a valid token is stored and delivered`, async () => {
  // Fill the hour's places, each post from a network of its own (so no rate limit, nor a network's cap, is reached).
  for (let i = 0; i < HELD_CEILING_PER_HOUR; i++)
    expect((await post(`${uniqueNetwork()}::1`, enquiry(`held-${i}`))).status).toBe(200)
  expect(await held()).toHaveLength(HELD_CEILING_PER_HOUR)

  // A visitor without JavaScript (so without a token): not stored, so not told it was sent.
  const values = enquiry('held-over-cap', { message: 'Please call me.\nI have no JavaScript.' })
  const refused = await postForm(worker, '/api/contact', { ...values }, { ip: `${uniqueNetwork()}::1` })
  expect(refused.status).toBe(303)
  const shown = parseHtml(await (await follow(worker, refused)).text())
  expect(contactStatus(shown)).toContain(FAILURE_MESSAGE)
  expect(contactStatus(shown)).not.toContain(SUCCESS_MESSAGE)
  expect(contactFields(shown)).toEqual(values)
  expect(await worker.sql('SELECT id FROM enquiries WHERE email = ?', values.email)).toEqual([])

  // A client that reads the answer is told when to try again: when the oldest place frees, within the hour.
  const over = await post(`${uniqueNetwork()}::1`, enquiry('held-over-cap-api'), 'forged-token')
  expect(over.status).toBe(429)
  expect(await over.json()).toEqual({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE })
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(60)
  expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(3600)
  expect(await held()).toHaveLength(HELD_CEILING_PER_HOUR)
  await expect
    .poll(() => worker.logs().some((line) => line.outcome === 'held_cap' && line.heldReason === 'turnstile_invalid'))
    .toBe(true)

  // A visitor whose token is valid is never held, so never capped.
  const real = enquiry('held-cap-real')
  expect((await post(`${uniqueNetwork()}::1`, real, token())).status).toBe(200)
  await expect
    .poll(() => worker.sql('SELECT status, attempts FROM enquiries WHERE email = ?', real.email))
    .toEqual([{ status: 'delivered', attempts: 1 }])
  expect(stand.forms.from(real.email)).toHaveLength(1)
})
