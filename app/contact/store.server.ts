import type { DeliveryAttempt, Enquiry, EnquiryRecord, EnquiryStatus } from './enquiry'
import { isEnquiryStatus } from './enquiry'
import { isSubject, subjectLabel } from './subjects'

/**
 * The system of record: enquiries in D1 (binding `ENQUIRIES`, schema in `migrations/`).
 * Plain SQL through the binding's prepared statements; every call is bounded by a time-out so a
 * stalled database never leaves a visitor waiting.
 */
export const STORE_TIMEOUT_MS = 5_000

export class StoreError extends Error {
  constructor(
    readonly code: 'missing_store_binding' | 'store_timeout' | 'store_error',
    readonly errorName?: string,
  ) {
    super(code)
  }
}

async function bounded<T>(work: Promise<T>, timeoutMs = STORE_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreError('store_timeout')), timeoutMs)
  })
  try {
    return await Promise.race([work, timeout])
  } catch (error) {
    if (error instanceof StoreError) throw error
    throw new StoreError('store_error', (error as Error)?.name ?? 'unknown')
  } finally {
    clearTimeout(timer)
  }
}

function database(db: D1Database | undefined): D1Database {
  if (!db) throw new StoreError('missing_store_binding')
  return db
}

interface Row {
  id: string
  received_at: string
  name: string
  email: string
  company: string
  subject: string
  message: string
  status: string
  attempts: number
  next_attempt_at: string | null
  last_cause: string | null
  delivered_at: string | null
  delivered_by: string | null
}

const COLUMNS =
  'id, received_at, name, email, company, subject, message, status, attempts, next_attempt_at, last_cause, delivered_at, delivered_by'

function toRecord(row: Row): EnquiryRecord {
  return {
    id: row.id,
    receivedAt: row.received_at,
    name: row.name,
    email: row.email,
    company: row.company,
    subject: row.subject,
    subjectLabel: isSubject(row.subject) ? subjectLabel(row.subject) : row.subject,
    message: row.message,
    status: isEnquiryStatus(row.status) ? row.status : 'pending',
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastCause: row.last_cause,
    deliveredAt: row.delivered_at,
    deliveredBy: row.delivered_by,
  }
}

/** A new enquiry id: 96 random bits, URL-safe, prefixed with the day for people reading lists. */
export function newEnquiryId(now: Date): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  const random = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
  return `${now.toISOString().slice(0, 10).replaceAll('-', '')}-${random}`
}

export type StoreOutcome = { created: true; record: EnquiryRecord } | { created: false; record: EnquiryRecord }

/**
 * Writes a new enquiry as `pending`, its first attempt due at `nextAttemptAt`. One row per
 * idempotency key: a repeat writes nothing and returns the row the first post made.
 */
export async function storeEnquiry(
  db: D1Database | undefined,
  enquiry: Enquiry,
  idempotencyKey: string,
  nextAttemptAt: string,
): Promise<StoreOutcome> {
  const d1 = database(db)
  const inserted = await bounded(
    d1
      .prepare(
        `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, attempts, next_attempt_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', 0, ?9)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING ${COLUMNS}`,
      )
      .bind(
        enquiry.id,
        idempotencyKey,
        enquiry.receivedAt,
        enquiry.name,
        enquiry.email,
        enquiry.company,
        enquiry.subject,
        enquiry.message,
        nextAttemptAt,
      )
      .first<Row>(),
  )
  if (inserted) return { created: true, record: toRecord(inserted) }
  const existing = await bounded(
    d1.prepare(`SELECT ${COLUMNS} FROM enquiries WHERE idempotency_key = ?1`).bind(idempotencyKey).first<Row>(),
  )
  if (!existing) throw new StoreError('store_error', 'RepeatWithoutRow')
  return { created: false, record: toRecord(existing) }
}

export async function getEnquiry(db: D1Database | undefined, id: string): Promise<EnquiryRecord | null> {
  const row = await bounded(
    database(db).prepare(`SELECT ${COLUMNS} FROM enquiries WHERE id = ?1`).bind(id).first<Row>(),
  )
  return row ? toRecord(row) : null
}

/** The ids of pending enquiries whose next attempt is due, oldest due first. */
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

/**
 * Claims a due pending enquiry for one attempt: moves its next attempt to `leaseUntil`, so a
 * concurrent run does not pick it too. False when it is no longer pending and due (delivered,
 * failed, or claimed by another run). If the attempt never reports back, the lease runs out and
 * the next run tries again: deliveries are at least once.
 */
export async function claimEnquiry(
  db: D1Database | undefined,
  id: string,
  now: string,
  leaseUntil: string,
): Promise<boolean> {
  const result = await bounded(
    database(db)
      .prepare(
        `UPDATE enquiries SET next_attempt_at = ?2 WHERE id = ?1 AND status = 'pending' AND next_attempt_at <= ?3`,
      )
      .bind(id, leaseUntil, now)
      .run(),
  )
  return result.meta.changes === 1
}

/** Makes a pending enquiry due at `at` (a lease given back without an attempt, or an operator's retry). */
export async function scheduleEnquiry(db: D1Database | undefined, id: string, at: string): Promise<void> {
  await bounded(
    database(db)
      .prepare(`UPDATE enquiries SET next_attempt_at = ?2 WHERE id = ?1 AND status = 'pending'`)
      .bind(id, at)
      .run(),
  )
}

/** Puts a failed enquiry back in the queue for one more attempt, due at `at`. False if it was not failed. */
export async function requeueFailed(db: D1Database | undefined, id: string, at: string): Promise<boolean> {
  const result = await bounded(
    database(db)
      .prepare(`UPDATE enquiries SET status = 'pending', next_attempt_at = ?2 WHERE id = ?1 AND status = 'failed'`)
      .bind(id, at)
      .run(),
  )
  return result.meta.changes === 1
}

export interface AttemptRecord {
  attempt: number
  attemptedAt: string
  delivery: string
  /** The row's state after this attempt. */
  status: EnquiryStatus
  cause: string | null
  /** Pending only: when the next attempt is due. */
  nextAttemptAt: string | null
}

/** Records one attempt's result on the enquiry and in its history, in one batch. */
export async function recordAttempt(db: D1Database | undefined, id: string, attempt: AttemptRecord): Promise<void> {
  const d1 = database(db)
  const delivered = attempt.status === 'delivered'
  await bounded(
    d1.batch([
      d1
        .prepare(
          `UPDATE enquiries SET status = ?2, attempts = ?3, next_attempt_at = ?4, last_cause = COALESCE(?5, last_cause),
             delivered_at = ?6, delivered_by = ?7
           WHERE id = ?1 AND status = 'pending'`,
        )
        .bind(
          id,
          attempt.status,
          attempt.attempt,
          attempt.nextAttemptAt,
          attempt.cause,
          delivered ? attempt.attemptedAt : null,
          delivered ? attempt.delivery : null,
        ),
      d1
        .prepare(
          `INSERT OR REPLACE INTO enquiry_attempts (enquiry_id, attempt, attempted_at, delivery, outcome, cause)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
        )
        .bind(
          id,
          attempt.attempt,
          attempt.attemptedAt,
          attempt.delivery,
          delivered ? 'delivered' : 'failed',
          attempt.cause,
        ),
    ]),
  )
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
