import { bounded, database } from '~/server/d1.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { type AuditRecord, auditLineIf } from './audit.server'
import type { EnquiryTriage } from './record'
import { overdueSql, replyBy, replyByHours, type TriageFacts } from './triage'

/** Triage in D1 (migrations/0005_triage.sql): four columns of `enquiries`, `enquiry_notes`, `inbox_operators`. */

/** `invalid`: `INBOX_REPLY_BY_HOURS` is set, but not to 1 to 480. */
export interface ReplyBySetup {
  hours: number
  invalid: boolean
}

export function replyBySetup(env: WorkerEnv): ReplyBySetup {
  return replyByHours(env.INBOX_REPLY_BY_HOURS)
}

/** The rest get theirs on the next read. */
const FILL_LIMIT = 100

/** Before anything counts them, so the target in effect when first seen holds; held ones get none. */
export async function fillReplyBy(env: WorkerEnv): Promise<number> {
  const d1 = database(env.ENQUIRIES)
  const { results } = await bounded(
    d1
      .prepare(
        `SELECT id, received_at FROM enquiries WHERE triage = 'new' AND reply_by IS NULL AND status != 'held' LIMIT ?1`,
      )
      .bind(FILL_LIMIT)
      .all<{ id: string; received_at: string }>(),
  )
  if (results.length === 0) return 0
  const { hours } = replyBySetup(env)
  const writes = results.flatMap((row) => {
    let due: string
    try {
      due = replyBy(row.received_at, hours)
    } catch {
      return []
    }
    return [d1.prepare('UPDATE enquiries SET reply_by = ?2 WHERE id = ?1 AND reply_by IS NULL').bind(row.id, due)]
  })
  if (writes.length) await bounded(d1.batch(writes))
  return writes.length
}

/** `mine` and `unassigned` leave closed ones out. */
export interface TriageCounts {
  new: number
  open: number
  replied: number
  closed: number
  overdue: number
  mine: number
  unassigned: number
}

export async function triageCounts(db: D1Database | undefined, me: string, now: string): Promise<TriageCounts> {
  const row = await bounded(
    database(db)
      .prepare(
        `SELECT
           COALESCE(SUM(triage = 'new'), 0) AS new,
           COALESCE(SUM(triage = 'open'), 0) AS open,
           COALESCE(SUM(triage = 'replied'), 0) AS replied,
           COALESCE(SUM(triage = 'closed'), 0) AS closed,
           COALESCE(SUM(${overdueSql('?1')}), 0) AS overdue,
           COALESCE(SUM(triage != 'closed' AND lower(owner) = ?2), 0) AS mine,
           COALESCE(SUM(triage != 'closed' AND owner IS NULL), 0) AS unassigned
         FROM enquiries`,
      )
      .bind(now, me.toLowerCase())
      .first<TriageCounts>(),
  )
  return row ?? { new: 0, open: 0, replied: 0, closed: 0, overdue: 0, mine: 0, unassigned: 0 }
}

export interface TriageNote {
  author: string
  at: string
  text: string
}

export async function notesOf(db: D1Database | undefined, id: string): Promise<TriageNote[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        'SELECT author, created_at AS at, body AS text FROM enquiry_notes WHERE enquiry_id = ?1 ORDER BY created_at, id',
      )
      .bind(id)
      .all<TriageNote>(),
  )
  return results.map((row) => ({ author: row.author, at: row.at, text: row.text }))
}

/** From then on, enquiries may be assigned to them. */
export async function seeOperator(db: D1Database | undefined, email: string, now: string): Promise<void> {
  await bounded(
    database(db)
      .prepare(
        'INSERT INTO inbox_operators (email, seen_at) VALUES (lower(?1), ?2) ON CONFLICT (email) DO UPDATE SET seen_at = excluded.seen_at',
      )
      .bind(email, now)
      .run(),
  )
}

/** And whoever marked one handled before triage existed; lower case. */
export async function seenOperators(db: D1Database | undefined): Promise<string[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT email FROM inbox_operators
         UNION SELECT lower(handled_by) FROM enquiries WHERE handled_by IS NOT NULL
         LIMIT 200`,
      )
      .all<{ email: string }>(),
  )
  return results.map((row) => row.email)
}

export async function markOpened(db: D1Database | undefined, id: string): Promise<void> {
  await bounded(
    database(db).prepare(`UPDATE enquiries SET triage = 'open' WHERE id = ?1 AND triage = 'new'`).bind(id).run(),
  )
}

export async function storedTriage(db: D1Database | undefined, id: string): Promise<EnquiryTriage | null> {
  const row = await bounded(
    database(db)
      .prepare('SELECT triage, outcome, owner, reply_by FROM enquiries WHERE id = ?1')
      .bind(id)
      .first<{ triage: string; outcome: string | null; owner: string | null; reply_by: string | null }>(),
  )
  return row && { state: row.triage, resolution: row.outcome, owner: row.owner, replyBy: row.reply_by }
}

/** Only while the triage is still `read`, its audit line in the same batch; else `stale` or `missing`. */
export async function writeTriage(
  db: D1Database | undefined,
  id: string,
  read: EnquiryTriage,
  next: TriageFacts,
  audit: Omit<AuditRecord, 'enquiryId' | 'enquiryIds'>,
  note?: { author: string; at: string; text: string },
): Promise<'written' | 'stale' | 'missing'> {
  const d1 = database(db)
  const unchanged = 'id = ?1 AND triage = ?2 AND outcome IS ?3 AND owner IS ?4'
  const update = d1
    .prepare(`UPDATE enquiries SET triage = ?5, outcome = ?6, owner = ?7 WHERE ${unchanged}`)
    .bind(id, read.state, read.resolution, read.owner, next.state, next.resolution, next.owner)
  if (note) {
    // A note is kept whoever moved the enquiry meanwhile: what the operator typed is not lost.
    const line = auditLineIf(
      d1,
      { ...audit, enquiryId: id },
      { sql: 'EXISTS (SELECT 1 FROM enquiries WHERE id = ?4)', binds: [] },
    )
    const insert = d1
      .prepare(
        `INSERT INTO enquiry_notes (enquiry_id, author, created_at, body) SELECT id, ?2, ?3, ?4 FROM enquiries WHERE id = ?1`,
      )
      .bind(id, note.author, note.at, note.text)
    const [, written] = await bounded(d1.batch([line, insert, update]))
    return (written?.meta.changes ?? 0) === 1 ? 'written' : 'missing'
  }
  const line = auditLineIf(
    d1,
    { ...audit, enquiryId: id },
    {
      sql: 'EXISTS (SELECT 1 FROM enquiries WHERE id = ?4 AND triage = ?6 AND outcome IS ?7 AND owner IS ?8)',
      binds: [read.state, read.resolution, read.owner],
    },
  )
  const [, result] = await bounded(d1.batch([line, update]))
  return (result?.meta.changes ?? 0) === 1 ? 'written' : 'stale'
}
