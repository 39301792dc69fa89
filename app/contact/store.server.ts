import { isSubject, subjectLabel } from '~/content/subjects'
import type { DeliveryAttempt, Enquiry, EnquiryRecord, EnquiryStatus } from './enquiry'
import { isEnquiryStatus } from './enquiry'
import { LIVE_LEASE_SQL, noLiveLease, type RequeueFrom, requeueSql } from './lease'
import { SOURCE_COLUMNS, type SourceRow, sourceOf } from './source-columns'

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

/** `work`, or a StoreError once it has taken `timeoutMs`; any other failure becomes a StoreError too. */
export async function bounded<T>(work: Promise<T>, timeoutMs = STORE_TIMEOUT_MS): Promise<T> {
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

export function database(db: D1Database | undefined): D1Database {
  if (!db) throw new StoreError('missing_store_binding')
  return db
}

interface Row extends SourceRow {
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
  held_reason: string | null
  handled_at: string | null
  handled_by: string | null
  triage: string
  outcome: string | null
  owner: string | null
  reply_by: string | null
}

const COLUMNS =
  'id, received_at, name, email, company, subject, message, status, attempts, next_attempt_at, last_cause, delivered_at, delivered_by, held_reason, handled_at, handled_by, triage, outcome, owner, reply_by, ' +
  SOURCE_COLUMNS

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
    heldReason: row.held_reason,
    handledAt: row.handled_at,
    handledBy: row.handled_by,
    source: sourceOf(row),
    triage: { state: row.triage, outcome: row.outcome, owner: row.owner, replyBy: row.reply_by },
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

export type StoreOutcome =
  | { created: true; record: EnquiryRecord }
  | { created: false; record: EnquiryRecord }
  /** Held, and the hourly cap on held enquiries is reached: nothing was stored. `freeAt`: when the cap frees a place. */
  | { created: false; full: true; freeAt: string }

/**

 * How a new enquiry starts: pending with its first attempt due (with `leaseToken`, claimed by that
 * attempt until then), or held (never attempted) for a reason. A held one may carry a cap: stored
 * only while fewer than `max` held enquiries were received since `since`.
 */
export type FirstState =
  | { nextAttemptAt: string; leaseToken?: string }
  | { heldReason: string; cap?: { since: string; max: number } }

/** A fresh token for one delivery attempt's lease (122 random bits). */
export function newLeaseToken(): string {
  return crypto.randomUUID()
}

/**
 * Writes a new enquiry as `pending`, its first attempt due at `nextAttemptAt`, or as `held` with
 * its reason (nothing is attempted until an operator releases it). One row per idempotency key: a
 * repeat writes nothing and returns the row the first post made. A held one over its cap is not
 * written (the count and the write are one statement, so concurrent posts cannot overshoot it).
 */
export async function storeEnquiry(
  db: D1Database | undefined,
  enquiry: Enquiry,
  idempotencyKey: string,
  first: FirstState,
): Promise<StoreOutcome> {
  const d1 = database(db)
  const held = 'heldReason' in first
  const cap = held ? first.cap : undefined
  const values = cap
    ? `SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, 0, ?9, ?11, NULL, NULL
         WHERE (SELECT COUNT(*) FROM enquiries WHERE status = 'held' AND received_at >= ?13) < ?14`
    : 'VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, 0, ?9, ?11, ?12, CASE WHEN ?12 IS NULL THEN NULL ELSE ?9 END)'
  const inserted = await bounded(
    d1
      .prepare(
        `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, attempts, next_attempt_at, held_reason, lease_token, lease_until)
         ${values}
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
        held ? null : first.nextAttemptAt,
        held ? 'held' : 'pending',
        held ? first.heldReason : null,
        held ? null : (first.leaseToken ?? null),
        ...(cap ? [cap.since, cap.max] : []),
      )
      .first<Row>(),
  )
  if (inserted) return { created: true, record: toRecord(inserted) }
  const existing = await bounded(
    d1.prepare(`SELECT ${COLUMNS} FROM enquiries WHERE idempotency_key = ?1`).bind(idempotencyKey).first<Row>(),
  )
  if (existing) return { created: false, record: toRecord(existing) }
  if (!cap) throw new StoreError('store_error', 'RepeatWithoutRow')
  // Over the cap: the place the oldest held enquiry of the hour frees when it turns an hour old.
  const oldest = await bounded(
    d1
      .prepare(`SELECT MIN(received_at) AS at FROM enquiries WHERE status = 'held' AND received_at >= ?1`)
      .bind(cap.since)
      .first<{ at: string | null }>(),
  )
  const span = Date.parse(enquiry.receivedAt) - Date.parse(cap.since)
  const freeAt = new Date(Date.parse(oldest?.at ?? enquiry.receivedAt) + span)
  return { created: false, full: true, freeAt: freeAt.toISOString() }
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

/** A pending enquiry claimed for one delivery attempt: the row as the claim left it, and the attempt's token. */
export interface Claim {
  record: EnquiryRecord
  token: string
}

/**
 * Claims a due pending enquiry for one attempt: writes a fresh lease token, and moves its lease end
 * and next attempt to `leaseUntil`, so no concurrent run or operator takes it too. Null when it is
 * no longer pending and due, or another attempt's lease is live. If the attempt never reports back,
 * the lease runs out and the next run tries again: deliveries are at least once.
 */
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

/**
 * Gives a lease back without an attempt (no delivery in effect): the enquiry is due at `at`. Only
 * the holder of the lease (`token`) can; otherwise nothing changes.
 */
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

/** When the live lease of an attempt on the enquiry ends, or null when none holds it at `now`. */
export async function liveLeaseUntil(db: D1Database | undefined, id: string, now: string): Promise<string | null> {
  const row = await bounded(database(db).prepare(LIVE_LEASE_SQL).bind(id, now).first<{ lease_until: string }>())
  return row?.lease_until ?? null
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

/**
 * How recording an attempt went: recorded; recorded under the next free number because its own was
 * taken (`renumbered`: the history was edited by hand; nothing was overwritten); or `lease_lost`:
 * the attempt's token no longer holds the enquiry (its lease ran out and another attempt claimed
 * it, or it was erased), so nothing was changed.
 */
export type RecordOutcome = 'recorded' | 'renumbered' | 'lease_lost'

const isHistoryClash = (error: unknown) =>
  /UNIQUE constraint failed: enquiry_attempts/.test(String((error as Error)?.message ?? error))

/**
 * Records one attempt's result on the enquiry and in its history, in one batch, while the
 * attempt's lease token still holds the row, and ends the lease. The history row is inserted,
 * never replaced. An enquiry an operator marked handled during the attempt stays handled; its
 * history still gets the attempt.
 */
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

/** What the inbox lists: one status or all, and a search in name, e-mail and company. */
export interface EnquiryFilter {
  status?: EnquiryStatus
  /** Matched as a substring (case-insensitive for ASCII); `%`, `_` and `\` match themselves. */
  search?: string
  /**
   * Triage (migrations/0005_triage.sql, app/admin/triage.ts): one state (`active`: not closed); one owner's e-mail, or
   * null for nobody; overdue at a time (new or open, and its reply-by passed).
   */
  triage?: { state?: string; owner?: string | null; overdueAt?: string }
}

/** `text` as a LIKE pattern that matches it anywhere, its wildcards escaped (with `ESCAPE '\'`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

function whereClause(filter: EnquiryFilter): { sql: string; params: string[] } {
  const conditions: string[] = []
  const params: string[] = []
  if (filter.status) {
    params.push(filter.status)
    conditions.push(`status = ?${params.length}`)
  }
  const search = filter.search?.trim()
  if (search) {
    params.push(containsPattern(search))
    const p = `?${params.length}`
    conditions.push(`(name LIKE ${p} ESCAPE '\\' OR email LIKE ${p} ESCAPE '\\' OR company LIKE ${p} ESCAPE '\\')`)
  }
  conditions.push(...triageConditions(filter.triage, params))
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params }
}

function triageConditions(triage: EnquiryFilter['triage'], params: string[]): string[] {
  const conditions: string[] = []
  if (triage?.state === 'active') conditions.push(`triage != 'closed'`)
  else if (triage?.state) {
    params.push(triage.state)
    conditions.push(`triage = ?${params.length}`)
  }
  if (triage?.owner === null) conditions.push('owner IS NULL')
  else if (triage?.owner) {
    params.push(triage.owner.toLowerCase())
    conditions.push(`lower(owner) = ?${params.length}`)
  }
  if (triage?.overdueAt) {
    params.push(triage.overdueAt)
    conditions.push(`triage IN ('new', 'open') AND reply_by < ?${params.length}`)
  }
  return conditions
}

/** One page of enquiries matching `filter`, newest first, and how many match in all. */
export async function listEnquiries(
  db: D1Database | undefined,
  filter: EnquiryFilter,
  page: { limit: number; offset: number },
): Promise<{ records: EnquiryRecord[]; total: number }> {
  const d1 = database(db)
  const where = whereClause(filter)
  const n = where.params.length
  const [rows, count] = await bounded(
    d1.batch([
      d1
        .prepare(
          `SELECT ${COLUMNS} FROM enquiries ${where.sql} ORDER BY received_at DESC, id LIMIT ?${n + 1} OFFSET ?${n + 2}`,
        )
        .bind(...where.params, page.limit, page.offset),
      d1.prepare(`SELECT COUNT(*) AS n FROM enquiries ${where.sql}`).bind(...where.params),
    ]),
  )
  const records = ((rows?.results ?? []) as Row[]).map(toRecord)
  const total = ((count?.results ?? [])[0] as { n: number } | undefined)?.n ?? 0
  return { records, total }
}

/**
 * Every enquiry matching `filter` (at most `limit`), newest first as the inbox lists them, one page
 * of `pageSize` rows at a time. Each page continues after the last row of the one before (keyset
 * pagination on received_at and id), so no page costs more to read than the first, and a row
 * erased or added meanwhile never shifts another out of the export.
 */
export async function* enquiryPages(
  db: D1Database | undefined,
  filter: EnquiryFilter,
  options: { pageSize: number; limit: number },
): AsyncGenerator<EnquiryRecord[], void, undefined> {
  const d1 = database(db)
  const where = whereClause(filter)
  const n = where.params.length
  let after: Row | undefined
  let left = options.limit
  while (left > 0) {
    const size = Math.min(options.pageSize, left)
    const conditions = [
      where.sql.replace(/^WHERE /, ''),
      after ? `(received_at < ?${n + 2} OR (received_at = ?${n + 2} AND id > ?${n + 3}))` : '',
    ].filter(Boolean)
    const { results } = await bounded(
      d1
        .prepare(
          `SELECT ${COLUMNS} FROM enquiries ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
           ORDER BY received_at DESC, id LIMIT ?${n + 1}`,
        )
        .bind(...where.params, size, ...(after ? [after.received_at, after.id] : []))
        .all<Row>(),
    )
    if (results.length > 0) yield results.map(toRecord)
    if (results.length < size) return
    left -= results.length
    after = results.at(-1)
  }
}

/** Marks an enquiry handled by `operator`; it is never delivered after. False if it does not exist or already was. */
export async function markHandled(
  db: D1Database | undefined,
  id: string,
  at: string,
  operator: string,
): Promise<boolean> {
  const result = await bounded(
    database(db)
      .prepare(
        `UPDATE enquiries SET status = 'handled', handled_at = ?2, handled_by = ?3, next_attempt_at = NULL
         WHERE id = ?1 AND status != 'handled'`,
      )
      .bind(id, at, operator)
      .run(),
  )
  return result.meta.changes === 1
}

/**
 * An operator's retry or release: makes the enquiry pending and due at `at` (now) from one of the
 * `from` statuses (a held one loses its reason), unless an attempt's lease on it is live. False
 * when it changed nothing: busy (see `liveLeaseUntil`), or not in one of those statuses.
 */
export async function requeueEnquiry(
  db: D1Database | undefined,
  id: string,
  at: string,
  from: readonly RequeueFrom[],
): Promise<boolean> {
  const row = await bounded(database(db).prepare(requeueSql(from)).bind(id, at).first<{ id: string }>())
  return row !== null
}

/** Deletes an enquiry and (by the foreign key's cascade) its delivery history. False if there was none. */
export async function eraseEnquiry(db: D1Database | undefined, id: string): Promise<boolean> {
  // Counted by RETURNING: D1's `changes` also counts the history rows the cascade deletes.
  const { results } = await bounded(
    database(db).prepare('DELETE FROM enquiries WHERE id = ?1 RETURNING id').bind(id).all<{ id: string }>(),
  )
  return results.length === 1
}

/** Deletes every held enquiry received before `cutoff` (and its history). Returns how many. */
export async function purgeHeldReceivedBefore(db: D1Database | undefined, cutoff: string): Promise<number> {
  const { results } = await bounded(
    database(db)
      .prepare(`DELETE FROM enquiries WHERE status = 'held' AND received_at < ?1 RETURNING id`)
      .bind(cutoff)
      .all<{ id: string }>(),
  )
  return results.length
}

/** Deletes every enquiry received before `cutoff` (and its history). Returns how many. */
export async function purgeReceivedBefore(db: D1Database | undefined, cutoff: string): Promise<number> {
  const { results } = await bounded(
    database(db)
      .prepare('DELETE FROM enquiries WHERE received_at < ?1 RETURNING id')
      .bind(cutoff)
      .all<{ id: string }>(),
  )
  return results.length
}
