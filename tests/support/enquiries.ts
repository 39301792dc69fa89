import { DatabaseSync } from 'node:sqlite'
import { expect } from '@playwright/test'
import type { EnquiryRecord } from '../../app/ledger'
import { ENQUIRY_COLUMNS } from '../../scripts/d1-execute'
import { localDatabaseFiles } from '../../scripts/local-d1.mjs'

export type StoredEnquiry = Omit<EnquiryRecord, 'subjectLabel'>

/**
 * The enquiries a test server stored, with the columns `npm run enquiries -- --json` prints, read
 * straight from the server's local D1 database file (SQLite, read-only) while it runs: no workerd
 * of its own to start for each poll, as the operator's command (`npm run enquiries`) starts one;
 * that command is proven on its own in local-doors.spec.ts and the worker tests
 * (tests/worker/deliveries.test.ts, faults.test.ts).
 */
export async function storedEnquiries(persistTo: string): Promise<StoredEnquiry[]> {
  const [file] = localDatabaseFiles(persistTo)
  if (!file) return []
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const rows = db.prepare(`SELECT ${ENQUIRY_COLUMNS} FROM enquiries ORDER BY received_at DESC`).all()
    return rows.map((row) => ({ ...row }) as unknown as StoredEnquiry)
  } finally {
    db.close()
  }
}

/** The stored enquiries from one visitor's address (each test uses addresses of its own). */
export async function storedFrom(persistTo: string, email: string): Promise<StoredEnquiry[]> {
  return (await storedEnquiries(persistTo)).filter((row) => row.email === email)
}

/**
 * Waits until exactly one enquiry from `email` is stored, with the given status (and number of
 * attempts, when given), and returns it.
 */
export async function expectStored(
  persistTo: string,
  email: string,
  status: StoredEnquiry['status'],
  attempts?: number,
  timeout = 45_000,
): Promise<StoredEnquiry> {
  let row: StoredEnquiry | undefined
  const want = attempts === undefined ? `1 ${status}` : `1 ${status} ${attempts}`
  await expect
    .poll(
      async () => {
        const rows = await storedFrom(persistTo, email)
        row = rows[0]
        return attempts === undefined
          ? `${rows.length} ${row?.status}`
          : `${rows.length} ${row?.status} ${row?.attempts}`
      },
      { timeout, intervals: [250, 500, 1000] },
    )
    .toBe(want)
  return row as StoredEnquiry
}

/**
 * Runs SQL on a test server's enquiry database (to set up a case, e.g. back-date a row), inside
 * the server's own workerd, through the local explorer's D1 API that wrangler's local server
 * serves (miniflare, `/cdn-cgi/local/explorer/api/d1/database/:id/raw`, the shape of Cloudflare's
 * D1 API). The server's own queries and this one take turns in one D1 object. A second process
 * writing the file (`wrangler d1 execute --local`, or SQLite opened on it) makes workerd's queries
 * that meet its lock fail at once with `SQLITE_BUSY`: a visitor's post answered 503, an desk page
 * 500, in whichever test runs beside it. Any change of that API fails here, loudly. The operator's
 * own SQL door (`npm run enquiries`, a workerd of its own on the file, as wrangler's `--local`) is
 * proven in local-doors.spec.ts and tests/worker/.
 */
export async function executeSql(origin: string, sql: string): Promise<void> {
  const api = `${origin}/cdn-cgi/local/explorer/api/d1/database`
  const listed = await fetch(api)
  const databases = (await listed.json()) as { result?: { name: string; uuid: string }[] }
  const database = databases.result?.find((candidate) => candidate.name === 'ENQUIRIES')
  if (!listed.ok || !database) throw new Error(`no ENQUIRIES database in ${api}: ${JSON.stringify(databases)}`)
  const answer = await fetch(`${api}/${database.uuid}/raw`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sql }),
  })
  const body = (await answer.json()) as { success?: boolean; result?: { success?: boolean }[] }
  if (!answer.ok || !body.success || !body.result?.every((statement) => statement.success))
    throw new Error(`SQL through ${api} failed (${answer.status}): ${JSON.stringify(body)}\n${sql.slice(0, 200)}`)
}

/** Rows of one query on a test server's database, read-only, as the functions above read it. */
export function queryStored(persistTo: string, sql: string, ...params: (string | number)[]): Record<string, unknown>[] {
  const [file] = localDatabaseFiles(persistTo)
  if (!file) return []
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    return db
      .prepare(sql)
      .all(...params)
      .map((row) => ({ ...row }))
  } finally {
    db.close()
  }
}

/** The audit lines one operator's actions wrote (each test signs in operators of its own), oldest first. */
export const auditLinesBy = (persistTo: string, operator: string): string[] =>
  queryStored(persistTo, 'SELECT action FROM audit_log WHERE operator = ? ORDER BY seq', operator).map((row) =>
    String(row.action),
  )
