// The desk's audit trail and requests by person (find, export, erase), pressed as without JavaScript; its GETs with
// an effect from another site or without Fetch Metadata lead to a confirmation page (docs/security.md).
import { expect, test } from 'vitest'
import { TEST_OPERATOR } from '../support/access-keys'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { parseHtml, spacedText, textOf } from './support/html'
import { follow, linkTo, pressButton, sendEnquiry, serverFnId, serverFnPayload } from './support/http'

const { stand, worker, token, asOperator } = deskUnderTest()
const open = async (path: string, headers?: Record<string, string>) =>
  parseHtml(await (await worker.fetch(path, { headers: headers ?? (await asOperator()) })).text())

/** The enquiry's audit trail as its page shows it: one "action operator" string a line, oldest first. */
const trailOf = async (id: string) =>
  [...(await open(`/admin/enquiries/${id}`)).querySelectorAll('[data-testid="audit-trail"] li')].map(spacedText)

/** The activity page's rows about one enquiry id: "Action | Enquiry cell", newest first. */
async function activityAbout(id: string): Promise<string[]> {
  const rows = [...(await open('/admin/activity')).querySelectorAll('tbody tr')].filter((row) =>
    textOf(row).includes(id),
  )
  return rows.map((row) => {
    const cells = [...row.querySelectorAll('td, th')].map(textOf)
    return `${cells[2]} | ${cells[3]}`
  })
}

test('the audit trail: each action leaves a line on the enquiry and on the activity page, and the lines survive an erasure', async () => {
  const values = enquiry('desk-audit', { name: `Audited ${crypto.randomUUID().slice(0, 8)}` })
  stand.forms.setScenario(values.email, { kind: 'status', status: 503 })
  const id = await sendEnquiry(worker, values, 'pending')
  stand.forms.setScenario(values.email, { kind: 'success' })
  const headers = await asOperator()

  // Opening the page is the first line.
  const opened = await open(`/admin/enquiries/${id}`, headers)
  expect([...opened.querySelectorAll('[data-testid="audit-trail"] li')].map(spacedText)).toEqual([
    expect.stringMatching(new RegExp(`Opened ${TEST_OPERATOR}$`)),
  ])

  // Retry: a line; the page it returns to is an open within a minute of it, not written again.
  const retried = await pressButton(worker, opened, 'Retry delivery now', {}, { headers })
  expect(
    textOf(
      parseHtml(await (await follow(worker, retried, undefined, headers)).text()).querySelector('[role="status"]'),
    ),
  ).toContain('Delivered now.')
  const afterRetry = await trailOf(id)
  expect(afterRetry).toHaveLength(2)
  expect(afterRetry[1]).toMatch(new RegExp(`Retried delivery ${TEST_OPERATOR} \\(was pending\\)$`))

  // Release: a held one (a Turnstile miss, say).
  await worker.exec(`UPDATE enquiries SET status = 'held', held_reason = 'turnstile_missing' WHERE id = '${id}'`)
  expect(
    (await pressButton(worker, await open(`/admin/enquiries/${id}`, headers), 'Release and deliver', {}, { headers }))
      .status,
  ).toBe(303)
  expect((await trailOf(id)).at(-1)).toMatch(/Released .* \(was held\)$/)

  // The CSV export: a line with the filter, never the search text.
  const exporter = `desk-export-${crypto.randomUUID().slice(0, 6)}@aksharalabs.in`
  const csv = await worker.fetch(`/admin/export.csv?q=${encodeURIComponent(values.name)}`, {
    headers: await asOperator(exporter),
  })
  expect(csv.status).toBe(200)
  const newest = [...(await open('/admin/activity')).querySelectorAll('tbody tr')].find((row) =>
    textOf(row).includes(exporter),
  )
  expect(textOf(newest)).toContain('Exported CSV')
  expect(textOf(newest)).toContain('status all, with a search')
  expect(textOf(newest)).not.toContain(values.name)

  // Erase: the enquiry goes, its lines stay, with its id only.
  const erased = await pressButton(
    worker,
    await open(`/admin/erase/${id}`, headers),
    'Erase permanently',
    {},
    { headers },
  )
  expect(erased.headers.get('location')).toBe('/admin?flash=erased')
  expect(await worker.sql('SELECT id FROM enquiries WHERE email = ?', values.email)).toEqual([])
  const about = await activityAbout(id)
  expect(about[0]).toBe(`Erased | ${id} (erased)`)
  expect(about.map((line) => line.split(' | ')[0])).toEqual(['Erased', 'Released', 'Retried delivery', 'Opened'])
  const activity = await open('/admin/activity')
  for (const secret of [values.name, values.email, values.message.split('\n')[0] ?? ''])
    expect(activity.documentElement.outerHTML).not.toContain(secret)
  // No form to change a line; no action for it: tests/unit/audit, desk-actions.
  expect(activity.querySelectorAll('main form')).toHaveLength(0)
})

test('bulk erasure of held enquiries is in the activity page, with its selection', async () => {
  const reason = `desk_${crypto.randomUUID().slice(0, 8).replace(/\d/g, 'x')}`
  const id = await sendEnquiry(worker, enquiry('desk-held', { name: `Held ${crypto.randomUUID().slice(0, 8)}` }))
  await worker.exec(`UPDATE enquiries SET status = 'held', held_reason = '${reason}' WHERE id = '${id}'`)
  const headers = await asOperator()
  const erased = await pressButton(
    worker,
    await open(`/admin/erase-held?reason=${reason}`, headers),
    'Erase permanently',
    {},
    { headers },
  )
  expect(
    textOf(parseHtml(await (await follow(worker, erased, undefined, headers)).text()).querySelector('[role="status"]')),
  ).toContain('held enquiries were erased')
  const lines = [...(await open('/admin/activity')).querySelectorAll('tbody tr')].filter((row) =>
    textOf(row).includes(reason),
  )
  expect(lines).toHaveLength(1)
  expect(textOf(lines[0])).toContain('Erased held enquiries')
  expect(textOf(lines[0])).toContain(TEST_OPERATOR)
})

test('a request by person: find by address (any case), export everything as JSON, then erase it all after a confirmation', async () => {
  const tag = crypto.randomUUID().slice(0, 8)
  const email = `person-${tag}@example.com`
  const first = enquiry('desk-person', { email, name: `Person ${tag}`, message: `First message ${tag}` })
  const second = enquiry('desk-person', { email: email.toUpperCase(), name: `Person ${tag}`, message: `Second ${tag}` })
  const other = enquiry('desk-person-other', { name: `Other ${tag}` })
  for (const values of [first, second, other]) await sendEnquiry(worker, values)
  const headers = await asOperator()

  // The search form is a GET: its address, as a browser builds it from the typed value.
  const form = (await open('/admin/person', headers)).querySelector('main form')
  expect(form?.getAttribute('method')?.toLowerCase() ?? 'get').toBe('get')
  const found = await open(`/admin/person?email=${encodeURIComponent(`  Person-${tag}@Example.com`)}`, headers)
  expect([...found.querySelectorAll('h2')].map(textOf)).toContain(`2 enquiries from ${email}`)
  expect(found.querySelectorAll('tbody tr')).toHaveLength(2)
  expect(textOf(found.querySelector('[data-testid="outside-reach"]'))).toContain('company mailbox')
  expect(textOf(found.querySelector('[data-testid="outside-reach"]'))).toContain('form service')

  // Export: one JSON file with both enquiries, whole, and their delivery history.
  const href = linkTo(found, 'Download all as JSON')
  expect(href).toBe(`/admin/person/export.json?email=${encodeURIComponent(email)}`)
  const exported = await worker.fetch(href, { headers })
  expect(exported.status).toBe(200)
  expect(exported.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="person-export-[\d-]+\.json"$/)
  expect(exported.headers.get('cache-control')).toContain('no-store')
  const data = (await exported.json()) as {
    email: string
    enquiries: { id: string; email: string; message: string; attempts: { outcome: string }[] }[]
  }
  // What the export holds: tests/unit/audit.
  expect(data.enquiries.map((row) => row.message).sort()).toEqual([first.message, second.message].sort())
  const ids = data.enquiries.map((row) => row.id)

  // Erase all: a confirmation page, then one form post.
  const confirm = await open(linkTo(found, 'Erase all…'), headers)
  expect(textOf(confirm.querySelector('h1'))).toBe(`Erase everything held for ${email}?`)
  expect(confirm.querySelectorAll('[data-testid="person-erase-list"] li')).toHaveLength(2)
  const erased = await pressButton(worker, confirm, 'Erase permanently', {}, { headers })
  expect(erased.status).toBe(303)
  const after = parseHtml(await (await follow(worker, erased, undefined, headers)).text())
  expect(textOf(after.querySelector('[role="status"]'))).toContain('were erased')
  expect([...after.querySelectorAll('h2')].map(textOf)).toContain(`Nothing held for ${email}`)
  expect(await worker.sql('SELECT id FROM enquiries WHERE lower(email) = ?', email)).toEqual([])
  expect(await worker.sql('SELECT id FROM enquiries WHERE email = ?', other.email)).toHaveLength(1)

  // Both are in the audit trail, one line per enquiry, with no address.
  for (const id of ids)
    expect((await activityAbout(id)).map((line) => line.split(' | ')[0])).toEqual([
      'Erased a person’s data',
      'Exported a person’s data',
      'Looked up a person',
    ])
  expect((await open('/admin/activity')).documentElement.outerHTML).not.toContain(email)
})

const signed = async () => ({ 'Cf-Access-Jwt-Assertion': await token() })

test('from another site, or with no Fetch Metadata: the confirmation page, and nothing done', async () => {
  const values = enquiry('cross-site', { name: `Cross ${crypto.randomUUID().slice(0, 8)}` })
  const id = await sendEnquiry(worker, values)
  const effects = [
    [`/admin/enquiries/${id}`, 'Open an enquiry.'],
    ['/admin/export.csv', 'Download the enquiries as a CSV file.'],
    [`/admin/person?email=${encodeURIComponent(values.email)}`, 'Look up one person’s enquiries.'],
    [`/admin/person/export.json?email=${encodeURIComponent(values.email)}`, 'Download everything stored about one'],
    [`/admin/erase/${id}`, 'Open the erasure page of an enquiry'],
  ] as const
  for (const site of ['cross-site', 'same-site', null]) {
    for (const [path, words] of effects) {
      const headers: Record<string, string> = { ...(await signed()), 'Sec-Fetch-Mode': 'navigate' }
      if (site) headers['Sec-Fetch-Site'] = site
      const answer = await worker.fetch(path, { headers })
      expect(answer.status, `${site} ${path}`).toBe(303)
      expect(answer.headers.get('location')).toBe(`/admin/confirm?to=${encodeURIComponent(path)}`)
      expect(answer.headers.get('content-disposition')).toBeNull()
      expect(answer.headers.get('cache-control')).toContain('no-store')
      // The confirmation page (reached by the same redirect chain) names the action, and offers a button.
      const page = await follow(worker, answer, undefined, headers)
      expect(page.status).toBe(200)
      const document = parseHtml(await page.text())
      expect(textOf(document.querySelector('[data-testid="confirm-effect"]'))).toContain(words)
      const form = document.querySelector('main form')
      expect(form?.getAttribute('method')).toBe('get')
      expect(form?.getAttribute('action')).toBe(path.split('?')[0])
      expect(textOf(form?.querySelector('button'))).toBe('Go on')
      expect(document.body.textContent).not.toContain(values.message)
    }
  }
  // Nothing read, nothing recorded.
  expect(await worker.sql('SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'new' }])
  expect(await worker.sql('SELECT * FROM audit_log')).toEqual([])

  // Pages without an effect open from anywhere: Access's login redirect lands on the desk.
  for (const path of ['/admin', '/admin/activity', '/admin/sources', '/admin/setup', '/admin/person']) {
    const answer = await worker.fetch(path, { headers: { ...(await signed()), 'Sec-Fetch-Site': 'cross-site' } })
    expect(answer.status, path).toBe(200)
  }
})

test('from the desk itself, or a typed address, the same GETs work', async () => {
  const values = enquiry('cross-site-own', { name: `Own ${crypto.randomUUID().slice(0, 8)}` })
  const id = await sendEnquiry(worker, values)
  for (const site of ['same-origin', 'none']) {
    const headers = { ...(await signed()), 'Sec-Fetch-Site': site }
    const page = await worker.fetch(`/admin/enquiries/${id}`, { headers })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(values.message)
    const csv = await worker.fetch('/admin/export.csv', { headers })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment;/)
    await csv.body?.cancel()
  }
  expect(await worker.sql('SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'open' }])
  expect((await worker.sql<{ action: string }>('SELECT action FROM audit_log')).map((row) => row.action)).toEqual(
    expect.arrayContaining(['open', 'export']),
  )
})

test('an effect page’s server function, called from another site, answers nothing and records nothing', async () => {
  const values = enquiry('cross-site-fn', { name: `Fn ${crypto.randomUUID().slice(0, 8)}` })
  const id = await sendEnquiry(worker, values)
  // What the enquiry page's own code calls on a client-side navigation (a GET server function).
  const call = `/_serverFn/${serverFnId('loadEnquiry')}?payload=${encodeURIComponent(serverFnPayload({ id }))}`
  const fromOutside = async (site: string | null) => {
    const headers: Record<string, string> = { ...(await signed()), 'x-tsr-serverFn': 'true' }
    if (site) headers['Sec-Fetch-Site'] = site
    return worker.fetch(call, { headers })
  }
  for (const site of ['cross-site', 'same-site', null]) {
    const answer = await fromOutside(site)
    expect(answer.status, String(site)).toBe(403)
    expect(await answer.text()).not.toContain(values.email)
  }
  expect(await worker.sql('SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'new' }])
  expect(await worker.sql('SELECT action FROM audit_log WHERE enquiry_id = ?', id)).toEqual([])

  // The desk's own page makes the same call same-origin, and gets the enquiry.
  const own = await fromOutside('same-origin')
  expect(own.status).toBe(200)
  expect(await own.text()).toContain(values.email)
  expect(await worker.sql('SELECT action FROM audit_log WHERE enquiry_id = ?', id)).toEqual([{ action: 'open' }])
})

test('the confirmation page goes on only to a desk address, however the target is written', async () => {
  const refused = [
    '/admin/..//admin.evil.example/login',
    '/admin/%2e%2e//admin.evil.example/login',
    '/admin.evil.example/login',
    '/admin/..\\evil.example/admin/export.csv',
    '\\\\evil.example/admin/export.csv',
    'https://evil.example/admin/export.csv',
    '//evil.example/admin/export.csv',
    'https://evil.example/admin',
    '/contact',
    '/admin',
  ]
  for (const to of refused) {
    const page = await worker.fetch(`/admin/confirm?to=${encodeURIComponent(to)}`, { headers: await signed() })
    expect(page.status, to).toBe(200)
    const document = parseHtml(await page.text())
    expect(document.querySelector('main form'), to).toBeNull()
    expect(textOf(document.querySelector('h1')), to).toBe('Nothing to go on to')
  }
  // The desk's own address still goes on, its action a path on this site.
  const page = await worker.fetch(`/admin/confirm?to=${encodeURIComponent('/admin/export.csv')}`, {
    headers: await signed(),
  })
  expect(
    parseHtml(await page.text())
      .querySelector('main form')
      ?.getAttribute('action'),
  ).toBe('/admin/export.csv')
})

test('a repeated query parameter is read as the page reads it: another site gets the confirmation page', async () => {
  const values = enquiry('cross-site-repeat', { name: `Repeat ${crypto.randomUUID().slice(0, 8)}` })
  await sendEnquiry(worker, values)
  const email = encodeURIComponent(values.email)
  // The page reads the last value: with the address last, a look-up, so the confirmation page;
  // with it first, the empty form, which does nothing.
  for (const [query, status] of [
    [`email=&email=${email}`, 303],
    [`email=${email}&email=`, 200],
  ] as const) {
    const path = `/admin/person?${query}`
    const answer = await worker.fetch(path, {
      headers: { ...(await signed()), 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' },
    })
    expect(answer.status, path).toBe(status)
    if (status === 303) expect(answer.headers.get('location')).toBe(`/admin/confirm?to=${encodeURIComponent(path)}`)
    expect(answer.headers.get('content-security-policy'), path).toBeTruthy()
    expect(answer.headers.get('cache-control'), path).toContain('no-store')
    expect(answer.headers.get('x-request-id'), path).toBeTruthy()
    expect(await answer.text(), path).not.toContain(values.message)
  }
  // Nothing looked up in anyone's name.
  expect(await worker.sql("SELECT action FROM audit_log WHERE action = 'person-search'")).toEqual([])
})
