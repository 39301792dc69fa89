import { describe, expect, it } from 'vitest'
import { csvCell, enquiriesCsv } from '../../app/admin/csv'
import type { EnquiryRecord } from '../../app/contact/enquiry'

const record: EnquiryRecord = {
  id: '20261123-abc',
  receivedAt: '2026-11-23T10:00:00.000Z',
  name: '=HYPERLINK("http://evil.example","Click")',
  email: "o'brien@example.com",
  company: '+91 Widgets, "Ltd"',
  subject: 'general',
  subjectLabel: 'General enquiry',
  message: 'Line one\nLine two, with ünïcödé and నమస్కారం',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: null,
  lastCause: null,
  deliveredAt: null,
  deliveredBy: null,
  heldReason: null,
  handledAt: null,
  handledBy: null,
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
