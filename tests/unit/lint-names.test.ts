import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { glossary, problems, words } from '../../scripts/lint-names'

/** The two tables of docs/architecture.md, "Words", as `npm run lint` reads them. */
const { retired, kept } = glossary(readFileSync('docs/architecture.md', 'utf8'))
const found = (path: string, text?: string) =>
  problems([{ path, text }], retired, kept).map((p) => `${p.name}: ${p.retired.word}`)

describe('the retired words (npm run lint, scripts/lint-names.ts)', () => {
  it('splits a name into its words, however it is spelled', () => {
    expect(words('LeadSourceDetails')).toBe('lead source details')
    expect(words('enquiry-source.test.ts')).toBe('enquiry source test ts')
    expect(words('INBOX_REPLY_BY_HOURS')).toBe('inbox reply by hours')
    expect(words('parseHTMLInbox')).toBe('parse html inbox')
  })

  it('refuses a retired word in an identifier, a file name or a folder, and says what to say instead', () => {
    expect(found('app/desk/list.ts', 'export const inboxRows = 1')).toEqual(['inboxRows: inbox'])
    expect(found('app/components/desk/LeadSourceCard.tsx', '')).toEqual([
      'app/components/desk/LeadSourceCard.tsx: lead source',
    ])
    expect(found('tests/unit/triage-store.test.ts')).toEqual(['tests/unit/triage-store.test.ts: store'])
    expect(found('app/server.ts', '')).toEqual(['app/server.ts: app/server.ts'])
    expect(found('app/desk/paths.ts', "const to = '/admin?notice=erased'")).toEqual(['?notice=: ?notice='])
    expect(problems([{ path: 'a.ts', text: 'let submissionCount' }], retired, kept)[0]?.retired.instead).toMatch(
      /enquiry/,
    )
  })

  it('reads identifiers only: strings, comments and a page’s words may say them', () => {
    expect(
      found('app/desk/head.ts', "// the inbox, as a visitor's mail client says\nconst title = 'Check your inbox'"),
    ).toEqual([])
    expect(found('app/x.tsx', 'export const X = () => <p>Your inbox</p>')).toEqual([])
  })

  it('keeps the stored and public names the glossary lists', () => {
    expect(found('app/server/desk-path.ts', 'export const ADMIN_PREFIX = "/admin"')).toEqual([])
    expect(found('app/routes/admin/index.tsx', '')).toEqual([])
    expect(found('scripts/admin-token.ts', '')).toEqual([])
    expect(found('migrations/0002_inbox.sql')).toEqual([])
    expect(found('app/ledger/triage.ts', 'env.INBOX_REPLY_BY_HOURS')).toEqual([])
  })
})
