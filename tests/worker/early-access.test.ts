// Early access, the visitor's side (docs/notices.md): signup, confirm, leave, caps, the cron's purge.
import { expect, test } from 'vitest'
import { TURNSTILE_FIELD } from '../../app/contact/turnstile'
import { signConfirmLink } from '../../app/notices/early-access-link'
import { uniqueEmail } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { pageAt, parseHtml, textOf } from './support/html'
import { follow, postForm, pressButton } from './support/http'
import { linkIn } from './support/mail'
import { clientAddress, type Mail } from './support/site'

const SECRET = 'worker-early-access-secret-0123456789abcdef'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({
  vars: stand.turnstile({
    EARLY_ACCESS_FROM: 'updates@aksharalabs.in',
    EARLY_ACCESS_LINK_SECRET: SECRET,
    RECEIPTS_PER_NETWORK_DAY: '3',
    RECEIPTS_PER_SITE_DAY: '6',
  }),
}))

const mailsTo = (email: string) => worker.mails().filter((mail) => mail.to.toLowerCase().includes(email.toLowerCase()))
const entry = async (email: string) =>
  (
    await worker.sql<Record<string, string | null>>(
      'SELECT * FROM early_access WHERE address_key = ?',
      email.toLowerCase(),
    )
  )[0]
const heading = (document: Document) => textOf(document.querySelector('h1'))
const open = (url: URL) => pageAt(worker.fetch.bind(worker), `${url.pathname}${url.search}`)

/** The panel's form posted as a browser without JavaScript posts it, with a passing Turnstile token unless `token` is false. */
function signUp(email: string, options: { ip?: string; token?: boolean; extra?: Record<string, string> } = {}) {
  const token: Record<string, string> =
    options.token === false ? {} : { [TURNSTILE_FIELD]: `pass-${crypto.randomUUID()}` }
  return postForm(worker, '/api/early-access', { email, website: '', ...token, ...options.extra }, { ip: options.ip })
}

/** Waits until every signup so far has logged its outcome. */
async function outcomes(count: number): Promise<string[]> {
  const lines = () => worker.logs().filter((line) => line.event === 'early_access' && !line.requestId)
  await expect.poll(() => lines().length).toBeGreaterThanOrEqual(count)
  return lines().map((line) => String(line.outcome))
}

/** A header of a message as the binding stored it (the message's form: tests/unit/contact-email, early-access). */
const header = (raw: string, name: string) => raw.match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]?.trim()

test('signup, the e-mail, the confirm page: its GET changes nothing, its POST confirms, a replay says already', async () => {
  const email = uniqueEmail('asha')
  const answer = await signUp(email)
  expect(answer.status).toBe(303)
  expect(answer.headers.get('location')).toBe('/products?early-access=sent#early-access')
  const panel = parseHtml(await (await follow(worker, answer)).text())
  expect(textOf(panel.querySelector('#early-access-status'))).toMatch(/^Check your inbox/)

  await expect.poll(() => mailsTo(email).length).toBe(1)
  const mail = mailsTo(email)[0] as Mail
  expect(mail.from).toBe('"Akshara Labs" <updates@aksharalabs.in>')
  const leave = linkIn(mail, '/early-access/leave')
  expect(header(mail.raw, 'List-Unsubscribe')).toBe(`<${leave.origin}/api/early-access/leave${leave.search}>`)
  expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
  expect(mail.text).not.toContain(email)
  const pending = await entry(email)
  expect(pending).toMatchObject({ state: 'pending', consent_version: 'v1', confirmed_at: null })
  expect(Object.keys(pending ?? {})).not.toContain('ip')

  // A mail scanner's GET, twice: the page and its button, and no change.
  const confirm = linkIn(mail, '/early-access/confirm')
  await open(confirm)
  const page = await open(confirm)
  expect(page.response.headers.get('x-robots-tag') ?? page.html).toMatch(/noindex/)
  expect(heading(page.document)).toBe('Confirm your address?')
  expect((await entry(email))?.state).toBe('pending')

  const confirmed = await pressButton(worker, page.document, 'Confirm')
  expect(confirmed.status).toBe(303)
  const after = parseHtml(await (await follow(worker, confirmed)).text())
  expect(heading(after)).toBe('You are on the list')
  const stored = await entry(email)
  expect(stored).toMatchObject({ state: 'confirmed', consent_version: 'v1' })
  expect(stored?.confirmed_at).toEqual(expect.any(String))
  // The page after confirming carries the way out.
  expect(after.querySelector('a[href^="/early-access/leave?"]')).not.toBeNull()

  // Pressed again (a replayed form): already confirmed, nothing changed.
  const again = await pressButton(worker, page.document, 'Confirm')
  expect(heading(parseHtml(await (await follow(worker, again)).text()))).toBe('Already confirmed')
  expect(await entry(email)).toEqual(stored)
  expect(await (await worker.fetch('/sitemap.xml')).text()).not.toContain('/early-access')
})

test('an expired or forged link gets a clear page and changes nothing, by GET or by POST', async () => {
  const email = uniqueEmail('forged')
  await signUp(email)
  await expect.poll(() => mailsTo(email).length).toBe(1)
  const real = linkIn(mailsTo(email)[0], '/early-access/confirm')
  const id = real.searchParams.get('id') ?? ''
  const expired = await signConfirmLink(SECRET, id, new Date(Date.now() - 8 * 86_400_000))
  const forged = new URLSearchParams(real.searchParams)
  forged.set('sig', `${forged.get('sig')?.slice(0, -2)}AA`)
  for (const [fields, title] of [
    [new URLSearchParams({ ...expired }), 'This link has expired'],
    [forged, 'This link does not work'],
  ] as const) {
    expect(heading((await open(new URL(`/early-access/confirm?${fields}`, worker.origin))).document)).toBe(title)
    const post = await postForm(worker, '/api/early-access/confirm', Object.fromEntries(fields))
    expect(heading(parseHtml(await (await follow(worker, post)).text()))).toBe(title)
  }
  expect((await entry(email))?.state).toBe('pending')
  expect((await worker.fetch(`/early-access/unknown?${real.searchParams}`)).status).toBe(404)
  for (const result of ['constructor', '__proto__', 'nonsense']) {
    const page = await worker.fetch(`/early-access/confirm?result=${result}`)
    expect([page.status, heading(parseHtml(await page.text()))]).toEqual([200, 'This link does not work'])
  }
})

test('the one-press way out as a mail client sends it: no Origin, no cookie, passing on its signed token alone', async () => {
  const email = uniqueEmail('leave')
  await signUp(email)
  await expect.poll(() => mailsTo(email).length).toBe(1)
  const oneClick = new URL(header(mailsTo(email)[0]?.raw ?? '', 'List-Unsubscribe')?.slice(1, -1) ?? '')
  const post = (search: string) =>
    worker.fetch(`${oneClick.pathname}${search}`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
  // A forged token gets no pass: the CSRF check refuses the Origin-less post.
  const forged = await post(oneClick.search.replace(/sig=[\w-]{4}/, 'sig=AAAA'))
  expect(forged.status).toBe(403)
  expect(await forged.json()).toMatchObject({ error: 'cross_site_request' })
  expect((await entry(email))?.state).toBe('pending')

  const left = await post(oneClick.search)
  expect(left.status).toBe(200)
  expect((await entry(email))?.state).toBe('left')
  // The leave page now says so; its GET never changes anything either.
  const page = await open(linkIn(mailsTo(email)[0], '/early-access/leave'))
  expect(heading(page.document)).toBe('Already left')
})

test('the leave page: its GET shows, its POST leaves', async () => {
  const email = uniqueEmail('leave-page')
  await signUp(email)
  await expect.poll(() => mailsTo(email).length).toBe(1)
  const page = await open(linkIn(mailsTo(email)[0], '/early-access/leave'))
  expect(heading(page.document)).toBe('Leave the list?')
  expect((await entry(email))?.state).toBe('pending')
  const left = await pressButton(worker, page.document, 'Leave')
  expect(heading(parseHtml(await (await follow(worker, left)).text()))).toBe('You have left the list')
  expect((await entry(email))?.left_at).toEqual(expect.any(String))
})

test('one answer for a new, pending, confirmed and departed address; a confirmed one gets no mail', async () => {
  const emails = {
    fresh: uniqueEmail('fresh'),
    pending: uniqueEmail('pending'),
    confirmed: uniqueEmail('confirmed'),
    left: uniqueEmail('left'),
  }
  const at = new Date().toISOString()
  for (const state of ['pending', 'confirmed', 'left'] as const)
    await worker.sql(
      `INSERT INTO early_access (id, email, address_key, state, consent_version, signed_up_at, confirmed_at, left_at)
       VALUES (?1, ?2, ?2, ?3, 'v1', ?4, ?4, ?4)`,
      `ea-${crypto.randomUUID().replaceAll('-', '')}`,
      emails[state],
      state,
      at,
    )
  const answers: string[] = []
  for (const email of Object.values(emails)) {
    const answer = await signUp(email)
    answers.push(`${answer.status} ${answer.headers.get('location')} ${await answer.text()}`)
  }
  expect(new Set(answers).size).toBe(1)
  expect((await outcomes(4)).sort()).toEqual(['already_confirmed', 'sent', 'sent', 'sent'])
  expect(mailsTo(emails.confirmed)).toHaveLength(0)
  // The departed address starts again: pending, under a new id (links sent before it left stay dead).
  expect(await entry(emails.left)).toMatchObject({ state: 'pending', left_at: null })
})

test('the receipts’ caps: one a day per mailbox however spelled, per network, for the site; Turnstile and the honeypot', async () => {
  const tag = crypto.randomUUID().slice(0, 6)
  const mine: string[] = [`asha.rao.${tag}@gmail.com`, `AshaRao${tag}+news@googlemail.com`]
  for (const email of mine) await signUp(email)
  expect((await outcomes(2)).sort()).toEqual(['daily_limit', 'sent'])
  const network = `2001:db8:${(0x1000 + Math.floor(Math.random() * 0xe000)).toString(16)}`
  for (let n = 1; n <= 4; n++) {
    mine.push(uniqueEmail(`net-${n}`))
    await signUp(mine.at(-1) as string, { ip: `${network}:${n}::1` })
  }
  expect((await outcomes(6)).slice(2).sort()).toEqual(['network_cap', 'sent', 'sent', 'sent'])
  for (let n = 1; n <= 4; n++) {
    mine.push(uniqueEmail(`site-${n}`))
    await signUp(mine.at(-1) as string, { ip: clientAddress() })
  }
  expect((await outcomes(10)).slice(6).sort()).toEqual(['sent', 'sent', 'site_cap', 'site_cap'])
  // This test's own mails: another test's confirmation may still be on its way.
  expect(mine.flatMap((email) => mailsTo(email))).toHaveLength(6)

  const tokenless = uniqueEmail('tokenless')
  const bot = uniqueEmail('bot')
  const answers = [await signUp(tokenless, { token: false }), await signUp(bot, { extra: { website: 'x' } })]
  expect(answers.map((answer) => answer.headers.get('location'))).toEqual([
    '/products?early-access=sent#early-access',
    '/products?early-access=sent#early-access',
  ])
  expect((await outcomes(11)).at(-1)).toBe('no_valid_token')
  expect(await entry(tokenless)).toBeUndefined()
  expect(await entry(bot)).toBeUndefined()
})

test('the cron deletes pending entries past 7 days and departures past 30, at the time it is given', async () => {
  const now = new Date('2031-03-10T12:00:00Z')
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()
  const rows = [
    ['stale', 'pending', daysAgo(7.01), null],
    ['fresh', 'pending', daysAgo(6.99), null],
    ['gone', 'left', daysAgo(60), daysAgo(30.01)],
    ['recent', 'left', daysAgo(60), daysAgo(29.99)],
    ['kept', 'confirmed', daysAgo(900), null],
  ] as const
  for (const [name, state, signedUpAt, leftAt] of rows)
    await worker.sql(
      `INSERT INTO early_access (id, email, address_key, state, consent_version, signed_up_at, left_at)
       VALUES (?1, ?2, ?2, ?3, 'v1', ?4, ?5)`,
      `ea-${crypto.randomUUID().replaceAll('-', '')}`,
      `${name}@example.com`,
      state,
      signedUpAt,
      leftAt,
    )
  await worker.cron(now)
  const left = await worker.sql<{ email: string }>('SELECT email FROM early_access ORDER BY email')
  expect(left.map((row) => row.email)).toEqual(['fresh@example.com', 'kept@example.com', 'recent@example.com'])
})
