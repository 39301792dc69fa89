import { DatabaseSync } from 'node:sqlite'
import { expect } from '@playwright/test'
import type { EnquiryRecord } from '../../app/ledger'
import { ENQUIRY_COLUMNS } from '../../scripts/d1-execute'
import { localDatabaseFiles } from '../../scripts/local-d1.mjs'

export type StoredEnquiry = Omit<EnquiryRecord, 'subjectLabel'>

/** The enquiries from one address a test server stored, as `npm run enquiries -- --json` has them, read-only. */
export async function storedFrom(persistTo: string, email: string): Promise<StoredEnquiry[]> {
  const sql = `SELECT ${ENQUIRY_COLUMNS} FROM enquiries WHERE email = ? ORDER BY received_at DESC`
  return queryStored(persistTo, sql, email) as unknown as StoredEnquiry[]
}

/** Waits until exactly one enquiry from `email` is stored, with `status` (and `attempts`, if given); returns it. */
export async function expectStored(
  persistTo: string,
  email: string,
  status: StoredEnquiry['status'],
  attempts?: number,
  timeout = 45_000,
): Promise<StoredEnquiry> {
  let rows: StoredEnquiry[] = []
  const extra = (row?: StoredEnquiry) => (attempts === undefined ? [] : [row?.attempts])
  await expect
    .poll(
      async () => {
        rows = await storedFrom(persistTo, email)
        return [rows.length, rows[0]?.status, ...extra(rows[0])]
      },
      { timeout, intervals: [250, 500, 1000] },
    )
    .toEqual([1, status, ...(attempts === undefined ? [] : [attempts])])
  return rows[0] as StoredEnquiry
}

/** Runs SQL in a test server's own workerd (its local explorer's D1 API): a second writer would get SQLITE_BUSY. */
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
