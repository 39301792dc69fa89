// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { EMPTY_VALUES } from '~/ledger'
import { csvCell, enquiriesCsv, enquiriesCsvStream } from '../../app/desk/csv-export.server'
import type { EnquiryRecord } from '../../app/ledger'
import { type EnquiryFilter, enquiryPages, listEnquiries } from '../../app/ledger/index.server'
import { csvCells } from '../support/csv'
import { sqliteD1 } from '../support/d1-sqlite'
import { storedEnquiry } from '../support/ledger'

const record: EnquiryRecord = {
  ...EMPTY_VALUES,
  id: '20261123-abc',
  receivedAt: '2026-11-23T10:00:00.000Z',
  name: '=HYPERLINK("http://evil.example","Click")',
  email: "o'brien@example.com",
  company: '+91 Widgets, "Ltd"',
  subject: 'general',
  subjectLabel: 'General enquiry',
  message: 'Line one\nLine two, with ünïcödé and నమస్కారం',
  ...{ status: 'pending', attempts: 0, nextAttemptAt: null, lastCause: null, deliveredAt: null, deliveredBy: null },
  ...{ heldReason: null, handledAt: null, handledBy: null },
}

describe('the CSV export', () => {
  it('neutralises every cell a spreadsheet would run as a formula, and leaves others as they are', () => {
    for (const [value, cell] of [
      ['=cmd()', `"'=cmd()"`],
      ['+1', `"'+1"`],
      ['-1+2', `"'-1+2"`],
      ['@SUM(A1)', `"'@SUM(A1)"`],
      ['\t=1', `"'\t=1"`],
      ['\r=1', `"'\r=1"`],
      ['a=1', '"a=1"'],
      ['Ravi', '"Ravi"'],
      ['say "hi"', '"say ""hi"""'],
      ['', '""'],
    ]) {
      expect(csvCell(value), JSON.stringify(value)).toBe(cell)
    }
    expect(csvCell(null)).toBe('""')
    expect(csvCell(3)).toBe('"3"')
  })

  it('is UTF-8 with a BOM, CRLF rows, quoted fields, a header row, and newlines kept inside quoted messages', () => {
    const csv = enquiriesCsv([record])
    expect(csv.startsWith('\uFEFF"ID","Received","Status","Name","E-mail","Company","Subject","Message"')).toBe(true)
    const lines = csv.slice(1).split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines[2]).toBe('')
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`)
    expect(lines[1]).toContain(`"'+91 Widgets, ""Ltd"""`)
    expect(lines[1]).toContain(`"o'brien@example.com"`)
    expect(lines[1]).toContain('"Line one\nLine two, with ünïcödé and నమస్కారం"')
    const bytes = new TextEncoder().encode(csv)
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  })
})

describe('the CSV export, streamed a page at a time', () => {
  async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
    return new Uint8Array(await new Response(stream).arrayBuffer())
  }

  async function* pagesOf(records: EnquiryRecord[], size: number) {
    for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size)
  }

  const many = (n: number): EnquiryRecord[] =>
    Array.from({ length: n }, (_, i) => ({
      ...record,
      id: `20261123-${String(i).padStart(4, '0')}`,
      name: i % 3 === 0 ? `=SUM(A${i})` : `Person ${i} "quoted"`,
      message: `Line one of ${i}\r\nLine two, నమస్కారం`,
      attempts: i,
    }))

  it('is the same bytes as the file built whole, for an empty, a one-row and a many-page export', async () => {
    for (const records of [[], [record], many(7), many(9)]) {
      const whole = new TextEncoder().encode(enquiriesCsv(records))
      const streamed = await bytesOf(enquiriesCsvStream(pagesOf(records, 3)))
      expect(Buffer.from(streamed).equals(Buffer.from(whole)), `${records.length} rows`).toBe(true)
    }
  })

  it('reads a page only when the client has taken the last: one page in memory, however long the export', async () => {
    let asked = 0
    const pages: AsyncIterator<EnquiryRecord[]> = {
      async next() {
        asked++
        return asked <= 1000 ? { done: false, value: many(3) } : { done: true, value: undefined }
      },
    }
    const reader = enquiriesCsvStream(pages).getReader()
    await reader.read() // the BOM and the header row
    await reader.read() // the first page
    // A little slack for the stream's one-chunk queue; nothing like the 1,000 pages there are.
    expect(asked).toBeLessThanOrEqual(2)
    await reader.cancel()
  })

  it('ends in an error (never a file that looks complete) when a page cannot be read, and says how far it got', async () => {
    const ends: [number, unknown][] = []
    let asked = 0
    const pages: AsyncIterator<EnquiryRecord[]> = {
      async next() {
        asked++
        if (asked === 3) throw new Error('D1 went away')
        return { done: false, value: many(2) }
      },
    }
    await expect(bytesOf(enquiriesCsvStream(pages, (rows, error) => ends.push([rows, error])))).rejects.toThrow(
      'D1 went away',
    )
    expect(ends).toEqual([[4, expect.any(Error)]])
  })
})

describe('the export’s pages, read from D1', () => {
  it('walks every row of a filter newest first, in pages, ties in time included, as the desk lists them, up to the limit', async () => {
    const d1 = sqliteD1()
    // 60 enquiries, five to a second: pages end in the middle of a tie, which keyset paging must not skip or repeat.
    for (let i = 0; i < 60; i++) {
      const receivedAt = new Date(Date.UTC(2026, 10, 23, 10, 0, Math.floor(i / 5))).toISOString()
      const id = `20261123-${String((i * 37) % 60).padStart(2, '0')}`
      await storedEnquiry(d1.db, receivedAt, { id, name: i % 2 ? `Odd ${i}` : `Even ${i}` }, i % 4 === 0)
    }
    const all = async (filter: EnquiryFilter, pageSize: number, limit = 50_000) => {
      const pages: string[][] = []
      for await (const page of enquiryPages(d1.db, filter, { pageSize, limit })) pages.push(page.map((r) => r.id))
      return pages
    }
    const ids = async (filter: EnquiryFilter) =>
      (await listEnquiries(d1.db, filter, { limit: 100, offset: 0 })).records.map((r) => r.id)
    const listed = await ids({})
    const pages = await all({}, 7)
    expect(pages.flat()).toEqual(listed)
    expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4])
    expect((await all({}, 7, 20)).flat()).toEqual(listed.slice(0, 20))
    expect((await all({}, 60)).flat()).toEqual(listed)

    const held = await ids({ status: 'held' })
    expect(held).toHaveLength(15)
    expect((await all({ status: 'held' }, 4)).flat()).toEqual(held)
    expect((await all({ search: 'Odd' }, 8)).flat()).toEqual(await ids({ search: 'Odd' }))
    d1.close()
  })
})

describe('the export’s triage columns', () => {
  it('carry each enquiry’s triage as the desk shows it: state, outcome, owner, reply-by, and overdue when the file is made', async () => {
    const d1 = sqliteD1()
    const people = ['Won Lead', 'Late Lead', 'New Lead'] as const
    for (const [i, name] of people.entries()) {
      await storedEnquiry(d1.db, new Date(Date.UTC(2026, 10, 23, 10, i)).toISOString(), { id: `20261123-t${i}`, name })
    }
    d1.sqlite.exec(`UPDATE enquiries SET triage = 'closed', outcome = 'won', owner = 'asha@aksharalabs.in',
      reply_by = '2026-11-24T10:00:00.000Z' WHERE id = '20261123-t0'`)
    d1.sqlite.exec(`UPDATE enquiries SET triage = 'open', owner = 'ravi@aksharalabs.in',
      reply_by = '2026-11-24T10:01:00.000Z' WHERE id = '20261123-t1'`)

    const records = []
    for await (const page of enquiryPages(d1.db, {}, { pageSize: 10, limit: 10 })) records.push(...page)
    const [header, ...lines] = enquiriesCsv(records, '2026-11-25T09:00:00.000Z').slice(1).split('\r\n')
    const titles = csvCells(header ?? '')
    const at = titles.indexOf('Triage')
    const columns = ['Handled by', 'Triage', 'Outcome', 'Owner', 'Reply by', 'Overdue', 'Sent from page']
    expect(titles.slice(at - 1, at + 6)).toEqual(columns)
    const triageOf = (name: string) => {
      const line = lines.find((text) => text.includes(`"${name}"`)) ?? ''
      return csvCells(line).slice(at, at + 5)
    }
    expect(triageOf('Won Lead')).toEqual(['Closed', 'Won', 'asha@aksharalabs.in', '2026-11-24T10:00:00.000Z', ''])
    expect(triageOf('Late Lead')).toEqual(['Open', '', 'ravi@aksharalabs.in', '2026-11-24T10:01:00.000Z', 'yes'])
    expect(triageOf('New Lead')).toEqual(['New', '', '', '', ''])
    // The same enquiry, before its reply-by: not overdue.
    const early = enquiriesCsv(records, '2026-11-24T09:00:00.000Z').split('\r\n')
    const late = early.find((text) => text.includes('"Late Lead"')) ?? ''
    expect(csvCells(late).slice(at, at + 5)).toEqual([
      'Open',
      '',
      'ravi@aksharalabs.in',
      '2026-11-24T10:01:00.000Z',
      '',
    ])
    d1.close()
  })
})
