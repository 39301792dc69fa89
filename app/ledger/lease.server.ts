import { bounded, database } from '~/server/d1.server'
import { type AuditRecord, auditLineIf } from './audit.server'
import { COLUMNS, type Row, toRecord } from './columns'
import { LIVE_LEASE_SQL, noLiveLease, type RequeueFrom, requeueCondition, requeueSql } from './lease'
import type { DeliveryAttempt, EnquiryRecord, EnquiryStatus } from './record'

/** Delivery attempts on the record: the lease (its rules are `lease.ts`) and `enquiry_attempts`. */

/** 122 random bits. */
export function newLeaseToken(): string {
  return crypto.randomUUID()
}

export async function dueEnquiryIds(db: D1Database | undefined, now: string, limit: number): Promise<string[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT id FROM enquiries WHERE status = 'pending' AND next_attempt_at <= ?1 ORDER BY next_attempt_at LIMIT ?2`,
      )
      .bind(now, limit)
      .all<{ id: string }>(),
  )
  return results.map((row) => row.id)
}

export async function countPending(db: D1Database | undefined): Promise<number> {
  const row = await bounded(
    database(db).prepare(`SELECT COUNT(*) AS n FROM enquiries WHERE status = 'pending'`).first<{ n: number }>(),
  )
  return row?.n ?? 0
}

export interface Claim {
  record: EnquiryRecord
  token: string
}

/** Null when no longer due or leased; an attempt that never reports back lets the lease run out: at least once. */
export async function claimEnquiry(
  db: D1Database | undefined,
  id: string,
  now: string,
  leaseUntil: string,
): Promise<Claim | null> {
  const token = newLeaseToken()
  const row = await bounded(
    database(db)
      .prepare(
        `UPDATE enquiries SET next_attempt_at = ?2, lease_token = ?4, lease_until = ?2
         WHERE id = ?1 AND status = 'pending' AND next_attempt_at <= ?3 AND ${noLiveLease('?3')}
         RETURNING ${COLUMNS}`,
      )
      .bind(id, leaseUntil, now, token)
      .first<Row>(),
  )
  return row ? { record: toRecord(row), token } : null
}

/** Without an attempt (no delivery in effect): due at `at`. Only the lease's holder can. */
export async function releaseLease(db: D1Database | undefined, id: string, token: string, at: string): Promise<void> {
  await bounded(
    database(db)
      .prepare(
        `UPDATE enquiries SET next_attempt_at = ?3, lease_token = NULL, lease_until = NULL
         WHERE id = ?1 AND lease_token = ?2 AND status = 'pending'`,
      )
      .bind(id, token, at)
      .run(),
  )
}

export async function liveLeaseUntil(db: D1Database | undefined, id: string, now: string): Promise<string | null> {
  const row = await bounded(database(db).prepare(LIVE_LEASE_SQL).bind(id, now).first<{ lease_until: string }>())
  return row?.lease_until ?? null
}

/** An operator's retry or release, audited in the same batch under the same condition; false if unchanged. */
export async function requeueEnquiry(
  db: D1Database | undefined,
  id: string,
  at: string,
  from: readonly RequeueFrom[],
  line?: Omit<AuditRecord, 'enquiryId' | 'enquiryIds'>,
): Promise<boolean> {
  const d1 = database(db)
  const requeue = d1.prepare(requeueSql(from)).bind(id, at)
  if (!line) return (await bounded(requeue.first<{ id: string }>())) !== null
  const guard = { sql: `EXISTS (SELECT 1 FROM enquiries WHERE ${requeueCondition(from, '?4', '?6')})`, binds: [at] }
  const [, result] = await bounded(d1.batch([auditLineIf(d1, { ...line, enquiryId: id }, guard), requeue]))
  return (result?.results ?? []).length === 1
}

export interface AttemptRecord {
  attempt: number
  attemptedAt: string
  delivery: string
  status: EnquiryStatus
  cause: string | null
  nextAttemptAt: string | null
}

/** `renumbered`: its number was taken, so it went in as the next; `lease_lost`: nothing changed. */
export type RecordOutcome = 'recorded' | 'renumbered' | 'lease_lost'

const isHistoryClash = (error: unknown) =>
  /UNIQUE constraint failed: enquiry_attempts/.test(String((error as Error)?.message ?? error))

/** In one batch, while its token holds the row. An enquiry marked handled meanwhile stays handled. */
export async function recordAttempt(
  db: D1Database | undefined,
  id: string,
  token: string,
  attempt: AttemptRecord,
): Promise<RecordOutcome> {
  const d1 = database(db)
  const delivered = attempt.status === 'delivered'
  // `number`: the history row's attempt number; `count`: the enquiry's attempts once it is inserted.
  const write = (number: string, count: string) =>
    d1.batch([
      d1
        .prepare(
          `INSERT INTO enquiry_attempts (enquiry_id, attempt, attempted_at, delivery, outcome, cause)
           SELECT id, ${number}, ?4, ?5, ?6, ?7 FROM enquiries WHERE id = ?1 AND lease_token = ?2`,
        )
        .bind(
          id,
          token,
          attempt.attempt,
          attempt.attemptedAt,
          attempt.delivery,
          delivered ? 'delivered' : 'failed',
          attempt.cause,
        ),
      d1
        .prepare(
          `UPDATE enquiries SET
             status = CASE WHEN status = 'pending' THEN ?4 ELSE status END,
             next_attempt_at = CASE WHEN status = 'pending' THEN ?5 ELSE next_attempt_at END,
             attempts = ${count}, last_cause = COALESCE(?6, last_cause),
             delivered_at = COALESCE(?7, delivered_at), delivered_by = COALESCE(?8, delivered_by),
             lease_token = NULL, lease_until = NULL
           WHERE id = ?1 AND lease_token = ?2`,
        )
        .bind(
          id,
          token,
          attempt.attempt,
          attempt.status,
          attempt.nextAttemptAt,
          attempt.cause,
          delivered ? attempt.attemptedAt : null,
          delivered ? attempt.delivery : null,
        ),
    ])
  const CLASH = Symbol('clash')
  let renumbered = false
  let results = await bounded(
    write('?3', '?3').catch((error) => (isHistoryClash(error) ? CLASH : Promise.reject(error))),
  )
  if (results === CLASH) {
    renumbered = true
    const next = '(SELECT COALESCE(MAX(attempt), 0) + 1 FROM enquiry_attempts WHERE enquiry_id = ?1)'
    const count = '(SELECT MAX(attempt) FROM enquiry_attempts WHERE enquiry_id = ?1)'
    results = await bounded(write(next, count))
  }
  const updated = (results as D1Result[])[1]?.meta.changes ?? 0
  if (updated !== 1) return 'lease_lost'
  return renumbered ? 'renumbered' : 'recorded'
}

export async function attemptsOf(db: D1Database | undefined, id: string): Promise<DeliveryAttempt[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT attempt, attempted_at, delivery, outcome, cause FROM enquiry_attempts WHERE enquiry_id = ?1 ORDER BY attempt`,
      )
      .bind(id)
      .all<{ attempt: number; attempted_at: string; delivery: string; outcome: string; cause: string | null }>(),
  )
  return results.map((row) => ({
    attempt: row.attempt,
    attemptedAt: row.attempted_at,
    delivery: row.delivery,
    outcome: row.outcome === 'delivered' ? 'delivered' : 'failed',
    cause: row.cause,
  }))
}

export interface RecentAttempt {
  enquiryId: string
  attemptedAt: string
  outcome: string
  cause: string | null
}

export async function recentAttempts(db: D1Database | undefined, limit: number): Promise<RecentAttempt[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT enquiry_id AS enquiryId, attempted_at AS attemptedAt, outcome, cause
         FROM enquiry_attempts ORDER BY attempted_at DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<RecentAttempt>(),
  )
  return results
}
