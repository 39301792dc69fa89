import { facts } from '~/content/facts'
import { bounded, database } from '~/server/d1.server'
import { log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import type { ActivityLine, AuditLine } from './audit'

/** The audit trail, append-only by the database's triggers; a line is written with its change or before it,
 * so an action whose line cannot be written is not done. Its detail never holds what a visitor wrote. */

export const AUDIT_DETAIL_MAX = 200

/** `enquiryIds`: one line each. */
export interface AuditRecord {
  operator: string
  action: string
  enquiryId?: string | null
  enquiryIds?: readonly string[]
  detail?: string
}

interface Row {
  seq: number
  at: string
  operator: string
  action: string
  enquiry_id: string | null
  detail: string
}

const toLine = (row: Row): AuditLine => ({
  seq: row.seq,
  at: row.at,
  operator: row.operator,
  action: row.action,
  enquiryId: row.enquiry_id,
  detail: row.detail,
})

const INSERT = 'INSERT INTO audit_log (at, operator, action, enquiry_id, detail) VALUES (?1, ?2, ?3, ?4, ?5)'

/** All lines or none. Throws when D1 does not take them: then do not act. */
export async function recordAudit(db: D1Database | undefined, record: AuditRecord, now = new Date()): Promise<void> {
  const d1 = database(db)
  const at = now.toISOString()
  const detail = (record.detail ?? '').slice(0, AUDIT_DETAIL_MAX)
  const ids = record.enquiryIds?.length ? record.enquiryIds : [record.enquiryId ?? null]
  const statements = ids.map((id) => d1.prepare(INSERT).bind(at, record.operator, record.action, id, detail))
  await bounded<unknown>(statements.length === 1 ? (statements[0] as D1PreparedStatement).run() : d1.batch(statements))
}

/** Only while `guard` (SQL over `?6`…, `binds`) holds, in the change's batch: a raced move leaves no line. */
export function auditLineIf(
  d1: D1Database,
  record: Omit<AuditRecord, 'enquiryIds'>,
  guard: { sql: string; binds: readonly (string | null)[] },
  now = new Date(),
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO audit_log (at, operator, action, enquiry_id, detail) SELECT ?1, ?2, ?3, ?4, ?5 WHERE ${guard.sql}`,
    )
    .bind(
      now.toISOString(),
      record.operator,
      record.action,
      record.enquiryId ?? null,
      (record.detail ?? '').slice(0, AUDIT_DETAIL_MAX),
      ...guard.binds,
    )
}

export const OPEN_QUIET_MS = 60_000

/** Not again within a minute of the operator's last line on it (the page an action returns to): the trail stays readable. */
export async function recordOpen(
  db: D1Database | undefined,
  operator: string,
  enquiryId: string,
  now = new Date(),
): Promise<void> {
  const at = now.toISOString()
  const since = new Date(now.getTime() - OPEN_QUIET_MS).toISOString()
  await bounded(
    database(db)
      .prepare(
        `INSERT INTO audit_log (at, operator, action, enquiry_id, detail)
         SELECT ?1, ?2, 'open', ?3, '' WHERE NOT EXISTS
           (SELECT 1 FROM audit_log WHERE enquiry_id = ?3 AND operator = ?2 AND at > ?4)`,
      )
      .bind(at, operator, enquiryId, since)
      .run(),
  )
}

/** Oldest first: the newest `limit`. */
export async function auditOf(db: D1Database | undefined, enquiryId: string, limit = 200): Promise<AuditLine[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT * FROM (SELECT seq, at, operator, action, enquiry_id, detail FROM audit_log
           WHERE enquiry_id = ?1 ORDER BY seq DESC LIMIT ?2) ORDER BY seq`,
      )
      .bind(enquiryId, limit)
      .all<Row>(),
  )
  return results.map(toLine)
}

export async function activityPage(
  db: D1Database | undefined,
  page: { limit: number; offset: number },
): Promise<{ lines: ActivityLine[]; total: number }> {
  const d1 = database(db)
  const [rows, count] = await bounded(
    d1.batch([
      d1
        .prepare(
          `SELECT a.seq, a.at, a.operator, a.action, a.enquiry_id, a.detail, e.id IS NOT NULL AS stored
           FROM audit_log a LEFT JOIN enquiries e ON e.id = a.enquiry_id
           ORDER BY a.seq DESC LIMIT ?1 OFFSET ?2`,
        )
        .bind(page.limit, page.offset),
      d1.prepare('SELECT COUNT(*) AS n FROM audit_log'),
    ]),
  )
  const lines = ((rows?.results ?? []) as (Row & { stored: number })[]).map((row) => ({
    ...toLine(row),
    enquiryStored: row.stored === 1,
  }))
  const total = ((count?.results ?? [])[0] as { n: number } | undefined)?.n ?? 0
  return { lines, total }
}

/** The only delete the database allows. */
export async function purgeAudit(db: D1Database | undefined, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - facts.auditRetentionDays * 86_400_000).toISOString()
  const { results } = await bounded(
    database(db).prepare('DELETE FROM audit_log WHERE at < ?1 RETURNING seq').bind(cutoff).all<{ seq: number }>(),
  )
  return results.length
}

export async function purgeAuditTrail(env: WorkerEnv, now = new Date()): Promise<number> {
  const deleted = await purgeAudit(env.ENQUIRIES, now)
  if (deleted > 0) log('info', { event: 'audit_retention', deleted, auditRetentionDays: facts.auditRetentionDays })
  return deleted
}
