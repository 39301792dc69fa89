// The desk's audit trail and requests by person (find, export, erase), pressed as without JavaScript.
import { expect, test } from 'vitest'
import { TEST_OPERATOR } from '../support/access-keys'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { parseHtml, spacedText, textOf } from './support/html'
import { follow, linkTo, pressButton, sendEnquiry, TYPED } from './support/http'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

const asOperator = async (email?: string) => ({
  'Cf-Access-Jwt-Assertion': await stand.keys.sign(email ? { email, sub: crypto.randomUUID() } : {}),
  ...TYPED,
})
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
