import { bounded, database, LedgerError } from '~/server/d1.server'
import { type AuditRecord, auditLineIf } from './audit.server'
import { COLUMNS, type Row, toRecord } from './columns'
import { CONTACT_FIELDS, ENQUIRY_FIELDS, FIELD_COLUMNS } from './fields'
import type { Enquiry, EnquiryRecord, EnquiryStatus } from './record'
import { overdueSql, type TriageFilter } from './triage'

/** The system of record: enquiries in D1 (`ENQUIRIES`, schema in `migrations/`), in plain SQL. */

/** Whether every column the ledger reads is there: compiled against the schema, no row read (`WHERE 0`). */
export async function ledgerReadable(db: D1Database | undefined): Promise<boolean> {
  if (!db) return false
  try {
    await db.prepare(`SELECT ${COLUMNS} FROM enquiries WHERE 0`).run()
    return true
  } catch {
    return false
  }
}

/** 96 random bits, URL-safe, after the day for people reading lists. */
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
  /** A held one over the hourly cap: nothing stored. `freeAt`: when the cap frees a place. */
  | { created: false; full: true; freeAt: string }

/** Held ones: `cap.max` per network (`cap.network`: its hashes under the keys in use; without it every
 * held counts) and `cap.ceiling` in all; `turnstile_unverified` ones count towards neither. */
export interface HeldCap {
  since: string
  max: number
  ceiling?: number
  network?: { store: string; match: readonly [string, string] }
}

export type FirstState = { nextAttemptAt: string; leaseToken?: string } | { heldReason: string; cap?: HeldCap }

const COUNTED_HELD = `status = 'held' AND held_reason IS NOT 'turnstile_unverified' AND received_at >= ?13`

/** The registry's fields' values are bound from this parameter on (the ones before are the row's and the cap's). */
const FIRST_FIELD_PARAM = 19

/** What the desk's search box looks in. */
const SEARCHED_COLUMNS = CONTACT_FIELDS.filter((field) => 'searched' in ENQUIRY_FIELDS[field]).map(
  (field) => ENQUIRY_FIELDS[field].column,
)

/** A repeated key returns the first post's row; the held cap's count and the write are one statement. */
export async function storeEnquiry(
  db: D1Database | undefined,
  enquiry: Enquiry,
  idempotencyKey: string,
  first: FirstState,
): Promise<StoreOutcome> {
  const d1 = database(db)
  const held = 'heldReason' in first
  const cap = held ? first.cap : undefined
  // ?4 to ?8 stay unbound so COUNTED_HELD's ?13 keeps its number; the fields' values come last.
  const fields = FIELD_COLUMNS.map((_, i) => `?${FIRST_FIELD_PARAM + i}`).join(', ')
  const values = cap
    ? `SELECT ?1, ?2, ?3, ?10, 0, ?9, ?11, NULL, NULL, ?15, ${fields}
         WHERE (SELECT COUNT(*) FROM enquiries WHERE ${COUNTED_HELD} AND (?15 IS NULL OR held_network IN (?16, ?17))) < ?14
           AND (SELECT COUNT(*) FROM enquiries WHERE ${COUNTED_HELD}) < ?18`
    : `VALUES (?1, ?2, ?3, ?10, 0, ?9, ?11, ?12, CASE WHEN ?12 IS NULL THEN NULL ELSE ?9 END, NULL, ${fields})`
  const inserted = await bounded(
    d1
      .prepare(
        `INSERT INTO enquiries (id, idempotency_key, received_at, status, attempts, next_attempt_at, held_reason, lease_token, lease_until, held_network, ${FIELD_COLUMNS.join(', ')})
         ${values}
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING ${COLUMNS}`,
      )
      .bind(
        enquiry.id,
        idempotencyKey,
        enquiry.receivedAt,
        null,
        null,
        null,
        null,
        null,
        held ? null : first.nextAttemptAt,
        held ? 'held' : 'pending',
        held ? first.heldReason : null,
        held ? null : (first.leaseToken ?? null),
        cap?.since ?? null,
        cap?.max ?? null,
        cap?.network?.store ?? null,
        cap?.network?.match[0] ?? null,
        cap?.network?.match[1] ?? null,
        cap ? (cap.ceiling ?? cap.max) : null,
        ...CONTACT_FIELDS.map((field) => enquiry[field]),
      )
      .first<Row>(),
  )
  if (inserted) return { created: true, record: toRecord(inserted) }
  const existing = await bounded(
    d1.prepare(`SELECT ${COLUMNS} FROM enquiries WHERE idempotency_key = ?1`).bind(idempotencyKey).first<Row>(),
  )
  if (existing) return { created: false, record: toRecord(existing) }
  if (!cap) throw new LedgerError('store_error', 'RepeatWithoutRow')
  // Over the cap: the place frees when the hour's oldest held enquiry (of the network) turns an hour old.
  const oldest = await bounded(
    d1
      .prepare(
        `SELECT MIN(received_at) AS at FROM enquiries WHERE ${COUNTED_HELD.replace('?13', '?1')} AND (?2 IS NULL OR held_network IN (?2, ?3))`,
      )
      .bind(cap.since, cap.network?.match[0] ?? null, cap.network?.match[1] ?? null)
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

export interface EnquiryFilter {
  status?: EnquiryStatus
  /** Case-insensitive for ASCII, in the registry's `searched` fields (name, e-mail, company); `%`, `_` and `\` match themselves. */
  search?: string
  triage?: TriageFilter
}

/** A LIKE pattern (with `ESCAPE '\'`) that matches `text` anywhere. */
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
    conditions.push(`(${SEARCHED_COLUMNS.map((column) => `${column} LIKE ${p} ESCAPE '\\'`).join(' OR ')})`)
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
    conditions.push(overdueSql(`?${params.length}`))
  }
  return conditions
}

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

/** Keyset pages (received_at, id): no page costs more than the first; an erasure meanwhile shifts no row out. */
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

/** The audit line in the same batch, written only when the change is (`from`: the status its page showed). */
export interface Recorded {
  line?: Omit<AuditRecord, 'enquiryId' | 'enquiryIds'>
  from?: string | null
}

export async function markHandled(
  db: D1Database | undefined,
  id: string,
  at: string,
  operator: string,
  { line, from = null }: Recorded = {},
): Promise<boolean> {
  const d1 = database(db)
  const when = `status != 'handled' AND (?4 IS NULL OR status = ?4)`
  const update = d1
    .prepare(
      `UPDATE enquiries SET status = 'handled', handled_at = ?2, handled_by = ?3, next_attempt_at = NULL
       WHERE id = ?1 AND ${when}`,
    )
    .bind(id, at, operator, from)
  if (!line) return (await bounded(update.run())).meta.changes === 1
  const guard = `EXISTS (SELECT 1 FROM enquiries WHERE id = ?4 AND status != 'handled' AND (?6 IS NULL OR status = ?6))`
  const [, result] = await bounded(
    d1.batch([auditLineIf(d1, { ...line, enquiryId: id }, { sql: guard, binds: [from] }), update]),
  )
  return (result?.meta.changes ?? 0) === 1
}

/** With its history (the foreign key cascades). False if there was none (or not with status `from`). */
export async function eraseEnquiry(
  db: D1Database | undefined,
  id: string,
  { line, from = null }: Recorded = {},
): Promise<boolean> {
  const d1 = database(db)
  // Counted by RETURNING: D1's `changes` also counts the history rows the cascade deletes.
  const erase = d1
    .prepare('DELETE FROM enquiries WHERE id = ?1 AND (?2 IS NULL OR status = ?2) RETURNING id')
    .bind(id, from)
  if (!line) return (await bounded(erase.all<{ id: string }>())).results.length === 1
  const guard = 'EXISTS (SELECT 1 FROM enquiries WHERE id = ?4 AND (?6 IS NULL OR status = ?6))'
  const [, result] = await bounded(
    d1.batch([auditLineIf(d1, { ...line, enquiryId: id }, { sql: guard, binds: [from] }), erase]),
  )
  return (result?.results ?? []).length === 1
}

export async function purgeHeldReceivedBefore(db: D1Database | undefined, cutoff: string): Promise<number> {
  const { results } = await bounded(
    database(db)
      .prepare(`DELETE FROM enquiries WHERE status = 'held' AND received_at < ?1 RETURNING id`)
      .bind(cutoff)
      .all<{ id: string }>(),
  )
  return results.length
}

export async function purgeReceivedBefore(db: D1Database | undefined, cutoff: string): Promise<number> {
  const { results } = await bounded(
    database(db)
      .prepare('DELETE FROM enquiries WHERE received_at < ?1 RETURNING id')
      .bind(cutoff)
      .all<{ id: string }>(),
  )
  return results.length
}

/** What the daily digest counts at `now`: the last 24 hours, and what is held, failing and overdue now. */
export interface EnquiryCounts {
  received: number
  delivered: number
  held: number
  /** Failed, or pending after at least one failed attempt. */
  failing: number
  overdue: number
}

export async function enquiryCounts(db: D1Database | undefined, now: Date): Promise<EnquiryCounts> {
  const since = new Date(now.getTime() - 86_400_000).toISOString()
  const row = await bounded(
    database(db)
      .prepare(
        `SELECT
           (SELECT COUNT(*) FROM enquiries WHERE received_at >= ?1) AS received,
           (SELECT COUNT(*) FROM enquiries WHERE delivered_at >= ?1) AS delivered,
           (SELECT COUNT(*) FROM enquiries WHERE status = 'held') AS held,
           (SELECT COUNT(*) FROM enquiries WHERE status = 'failed' OR (status = 'pending' AND attempts > 0)) AS failing,
           (SELECT COUNT(*) FROM enquiries WHERE ${overdueSql('?2')}) AS overdue`,
      )
      .bind(since, now.toISOString())
      .first<EnquiryCounts>(),
  )
  return row ?? { received: 0, delivered: 0, held: 0, failing: 0, overdue: 0 }
}
