// Triage in the desk (docs/desk.md) as the Worker answers it; the moves' rules are tests/unit/triage*.
import { expect, test } from 'vitest'
import { replyBy } from '../../app/ledger/triage'
import { csvCells } from '../support/csv'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { parseHtml, textOf } from './support/html'
import { follow, postForm, pressButton, sendEnquiry } from './support/http'

const { worker, asOperator } = deskUnderTest()

/** An operator of its own (a fresh Access identity), who reads pages and presses buttons without JavaScript. */
async function operator(label: string) {
  const email = `${label}-${crypto.randomUUID().slice(0, 6)}@aksharalabs.in`
  const headers = await asOperator(email)
  const open = async (path: string) => parseHtml(await (await worker.fetch(path, { headers })).text())
  return {
    email,
    headers,
    open,
    /** Presses a button of the page, and returns the page its 303 leads to. */
    async press(document: Document, label: string, values: Record<string, string> = {}) {
      const answer = await pressButton(worker, document, label, values, { headers })
      expect(answer.status, label).toBe(303)
      return parseHtml(await (await follow(worker, answer, undefined, headers)).text())
    },
  }
}

const panel = (document: Document) => document.querySelector('section[aria-labelledby="triage-title"]')
const testId = (root: Element | Document | null | undefined, id: string) =>
  textOf(root?.querySelector(`[data-testid="${id}"]`))
const rowOf = (document: Document, name: string) =>
  [...document.querySelectorAll('tbody tr')].find((row) => textOf(row).includes(name))
const flash = (document: Document) => textOf(document.querySelector('[role="status"]'))
/** A time as the desk shows it (desk-ui.tsx formatTime): `2026-11-23 12:00 UTC`. */
const shown = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

test('two operators take, note, hand over and close an enquiry; the list, the page and the CSV show each step', async () => {
  const tag = crypto.randomUUID().slice(0, 8)
  const values = enquiry('triage-two', { name: `Two ${tag}` })
  const id = await sendEnquiry(worker, values)
  const asha = await operator('asha')
  const bharat = await operator('bharat')

  // Nobody has opened it: new, and nobody's.
  const list = await asha.open(`/admin?q=${tag}`)
  expect(testId(rowOf(list, values.name), 'triage-state')).toBe('New')
  expect(testId(rowOf(list, values.name), 'list-owner')).toBe('nobody')

  // Opening it makes it open; Asha takes it.
  let page = await asha.open(`/admin/enquiries/${id}`)
  expect(testId(panel(page), 'triage-state')).toBe('Open')
  expect(testId(panel(page), 'triage-owner')).toBe('Nobody yet')
  page = await asha.press(page, 'Take it')
  expect(flash(page)).toBe('It is yours now.')
  expect(testId(panel(page), 'triage-owner')).toBe(`${asha.email} (you)`)
  expect([...(panel(page)?.querySelectorAll('button') ?? [])].map(textOf)).not.toContain('Take it')

  // Bharat sees it is Asha's, adds a note, and takes it over.
  let his = await bharat.open(`/admin/enquiries/${id}`)
  expect(testId(panel(his), 'triage-owner')).toBe(asha.email)
  his = await bharat.press(his, 'Add note', { text: 'Called them.\nThey want a quote by Friday.' })
  expect(flash(his)).toBe('Note added.')
  const notes = panel(his)?.querySelectorAll('[data-testid="note"]') ?? []
  expect(notes).toHaveLength(1)
  expect(textOf(notes[0])).toContain(bharat.email)
  expect(textOf(notes[0])).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
  expect(notes[0]?.textContent).toContain('They want a quote by Friday.')
  his = await bharat.press(his, 'Take it')
  expect(testId(panel(his), 'triage-owner')).toBe(`${bharat.email} (you)`)
  his = await bharat.press(his, 'Mark replied')
  expect(flash(his)).toBe('Marked replied.')

  // Bharat hands it back to Asha: both have acted, so both are on the list of operators.
  const choices = [...(panel(his)?.querySelectorAll('select[name="owner"] option') ?? [])].map((o) =>
    o.getAttribute('value'),
  )
  expect(choices).toEqual(expect.arrayContaining([asha.email, bharat.email]))
  his = await bharat.press(his, 'Assign', { owner: asha.email })
  expect(flash(his)).toBe('Assigned.')
  expect(testId(panel(his), 'triage-owner')).toBe(asha.email)

  // Asha closes it as won; she sees Bharat's note.
  page = await asha.open(`/admin/enquiries/${id}`)
  expect(textOf(panel(page)?.querySelector('[data-testid="note"]'))).toContain('Called them.')
  expect(testId(panel(page), 'triage-state')).toBe('Replied')
  page = await asha.press(page, 'Close', { outcome: 'won' })
  expect(flash(page)).toBe('Closed.')
  expect(testId(panel(page), 'triage-state')).toBe('Closed: Won')
  // Closed: no taking or assigning until it is reopened.
  const buttons = [...(panel(page)?.querySelectorAll('button') ?? [])].map(textOf)
  expect(buttons).not.toContain('Take it')
  expect(buttons).not.toContain('Assign')
  expect(buttons).toContain('Reopen')

  // The CSV export carries the triage as the page shows it: Closed, Won, and whose it is.
  const csv = (await (await worker.fetch(`/admin/export.csv?q=${tag}`, { headers: asha.headers })).text()).replace(
    /^\uFEFF/,
    '',
  )
  const header = csvCells(csv.slice(0, csv.indexOf('\r\n')))
  const at = header.indexOf('Triage')
  expect(header.slice(at, at + 3)).toEqual(['Triage', 'Outcome', 'Owner'])
  const rows = csvCells(csv)
  expect(rows).toHaveLength(header.length * 2)
  expect(rows.slice(header.length + at, header.length + at + 3)).toEqual(['Closed', 'Won', asha.email])

  // A take posted anyway is refused and changes nothing.
  const post = (who: { headers: Record<string, string> }, fields: Record<string, string>) =>
    postForm(worker, '/admin/actions', { id, ...fields }, { headers: who.headers })
  expect((await post(bharat, { action: 'triage-take' })).headers.get('location')).toBe(
    `/admin/enquiries/${id}?flash=triage-refused`,
  )
  // Reopened, it can be assigned again, but only to an operator.
  expect((await post(asha, { action: 'triage-state', state: 'open' })).headers.get('location')).toBe(
    `/admin/enquiries/${id}?flash=triage-open`,
  )
  expect(
    (await post(asha, { action: 'triage-assign', owner: 'someone@elsewhere.example' })).headers.get('location'),
  ).toBe(`/admin/enquiries/${id}?flash=triage-unknown-operator`)

  // Each action's log line names the operator by Access's ID, never a note's text or an e-mail.
  await expect
    .poll(() =>
      worker
        .logs()
        .filter((line) => line.event === 'admin' && line.enquiryId === id && String(line.action).startsWith('triage-'))
        .map((line) => line.result),
    )
    .toEqual(
      expect.arrayContaining(['triage-taken', 'triage-noted', 'triage-replied', 'triage-assigned', 'triage-closed']),
    )
  const text = JSON.stringify(worker.logs().filter((line) => line.event === 'admin' && line.enquiryId === id))
  for (const secret of ['They want a quote', asha.email, bharat.email]) expect(text).not.toContain(secret)
})

test('filters and counts: state, owner (me, nobody) and new, as addresses the list keeps', async () => {
  const tag = crypto.randomUUID().slice(0, 8)
  const [first, second, third] = await Promise.all(
    ['One', 'Two', 'Three'].map(async (word) => {
      const values = enquiry('triage-filters', { name: `${word} ${tag}` })
      return { values, id: await sendEnquiry(worker, values) }
    }),
  )
  if (!first || !second || !third) throw new Error('three enquiries')
  const me = await operator('filters')
  let list = await me.open('/admin')
  const counts = () => list.querySelector('section[aria-labelledby="triage-counts-title"]')
  expect(testId(counts(), 'count-mine')).toBe('0')
  expect(testId(list, 'triage-reply-by')).toContain('Reply within 24 weekday hours')

  // Take two, close one of them.
  for (const { id } of [first, second]) await me.press(await me.open(`/admin/enquiries/${id}`), 'Take it')
  const closed = await me.press(await me.open(`/admin/enquiries/${second.id}`), 'Close', { outcome: 'not_a_fit' })
  expect(testId(panel(closed), 'triage-state')).toBe('Closed: Not a fit')

  // Mine counts open work only: one. Its link lists it.
  list = await me.open('/admin')
  expect(testId(counts(), 'count-mine')).toBe('1')
  const mine = [...(counts()?.querySelectorAll('a') ?? [])].find((a) => textOf(a).startsWith('Mine'))
  expect(mine?.getAttribute('href')).toBe('/admin?state=active&owner=me')
  list = await me.open('/admin?state=active&owner=me')
  expect(testId(list, 'list-count')).toBe('1–1 of 1')
  expect(rowOf(list, first.values.name)).toBeTruthy()
  const current = [...(counts()?.querySelectorAll('a') ?? [])].find((a) => textOf(a).startsWith('Mine'))
  expect(current?.getAttribute('aria-current')).toBe('page')

  // State and owner with the search, in one address (each filter's rows: tests/unit/triage-ledger).
  list = await me.open(`/admin?q=${tag}&owner=none`)
  expect(list.querySelectorAll('tbody tr')).toHaveLength(1)
  expect(testId(rowOf(list, third.values.name), 'list-owner')).toBe('nobody')
  list = await me.open(`/admin?q=${tag}&owner=me`)
  expect(list.querySelectorAll('tbody tr')).toHaveLength(2)
  expect(testId(rowOf(list, first.values.name), 'list-owner')).toBe('you')

  // New: the one nobody opened. The CSV link keeps the triage filter.
  list = await me.open(`/admin?q=${tag}&state=new`)
  expect(list.querySelectorAll('tbody tr')).toHaveLength(1)
  expect(rowOf(list, third.values.name)).toBeTruthy()
  const exportLink = [...list.querySelectorAll('a')].find((a) => textOf(a) === 'Export CSV')
  expect(exportLink?.getAttribute('href')).toMatch(/state=new/)
})

test('the overdue mark: past its reply-by, with words, in the list, the filter, the count and the page; gone once replied', async () => {
  const tag = crypto.randomUUID().slice(0, 8)
  const late = enquiry('triage-late', { name: `Late ${tag}` })
  const fresh = enquiry('triage-fresh', { name: `Fresh ${tag}` })
  const lateId = await sendEnquiry(worker, late)
  await sendEnquiry(worker, fresh)
  // Received ten days ago, reply-by not yet written.
  const receivedAt = new Date(Date.now() - 10 * 86_400_000).toISOString()
  await worker.exec(`UPDATE enquiries SET received_at = '${receivedAt}', reply_by = NULL WHERE id = '${lateId}'`)
  const me = await operator('overdue')

  let list = await me.open(`/admin?q=${tag}`)
  expect(testId(rowOf(list, late.name), 'overdue')).toBe('! Overdue')
  expect(rowOf(list, fresh.name)?.querySelector('[data-testid="overdue"]')).toBeNull()
  expect(testId(rowOf(list, fresh.name), 'triage-state')).toBe('New')

  // The overdue filter and count, written with a thousands separator once there are many.
  list = await me.open(`/admin?q=${tag}&overdue=yes`)
  expect(list.querySelectorAll('tbody tr')).toHaveLength(1)
  expect(rowOf(list, late.name)).toBeTruthy()
  expect(Number(testId(list, 'count-overdue').replaceAll(',', ''))).toBe(1)
  const overdueLink = [...list.querySelectorAll('a')].find((a) => textOf(a).startsWith('Overdue'))
  expect(overdueLink?.getAttribute('href')).toBe('/admin?overdue=yes')

  // Its page: the reply-by time (one business day after it arrived) and the mark.
  let page = await me.open(`/admin/enquiries/${lateId}`)
  const when = () => panel(page)?.querySelector('[data-testid="triage-reply-by-time"]')
  expect(textOf(when())).toContain(shown(replyBy(receivedAt, 24)))
  expect(testId(when(), 'overdue')).toBe('! Overdue')
  // Opened, it is still overdue; replied, it is not.
  page = await me.press(page, 'Mark replied')
  expect(flash(page)).toBe('Marked replied.')
  expect(when()?.querySelector('[data-testid="overdue"]')).toBeNull()
  list = await me.open(`/admin?q=${tag}&overdue=yes`)
  expect(testId(list, 'list-count')).toBe('No enquiries.')
})
