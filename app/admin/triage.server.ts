import { bounded, database, type EnquiryRecord } from '~/contact/index.server'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { recordAudit } from './audit.server'
import { enquiryPath } from './paths'
import {
  parseTriageAction,
  replyBy,
  replyByHours,
  type TriageAction,
  type TriageActionName,
  type TriageNotice,
  type TriageView,
  transition,
  triageView,
} from './triage'

/**
 * Triage in D1 (migrations/0005_triage.sql): the columns `triage`, `outcome`, `owner` and
 * `reply_by` on each enquiry, and the `enquiry_notes` table. The rules are `triage.ts`.
 */

/** Who is acting (inbox.server.ts's Operator): their Access e-mail, and Access's ID for them. */
interface Operator {
  email: string
  id: string
}

/** The reply-by target in effect (INBOX_REPLY_BY_HOURS), for the inbox's set-up. */
export interface ReplyBySetup {
  hours: number
  /** The variable is set to something that is not a whole number of hours from 1 to 480. */
  invalid: boolean
}

export function replyBySetup(env: WorkerEnv): ReplyBySetup {
  return replyByHours(env.INBOX_REPLY_BY_HOURS)
}

/** The rows one fill writes at most; the rest get theirs on the next read. */
const FILL_LIMIT = 100

/**
 * Writes the reply-by time of new enquiries that have none yet: received_at plus the target's
 * weekday hours. Done by each inbox read before it counts or filters, so the target set when the
 * inbox first sees an enquiry is the one that holds. Held enquiries get none (they are not
 * delivered, and most are spam); nor do rows read before triage existed.
 */
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

interface TriageRow {
  id: string
  triage: string
  outcome: string | null
  owner: string | null
  reply_by: string | null
}

const toView = (row: TriageRow, now: string): TriageView =>
  triageView({ state: row.triage, outcome: row.outcome, owner: row.owner, replyBy: row.reply_by }, now)

/** How many enquiries are in each state, overdue, the operator's, and nobody's (not counting closed ones). */
export interface TriageCounts {
  new: number
  open: number
  replied: number
  closed: number
  overdue: number
  mine: number
  unassigned: number
}

export async function triageCounts(env: WorkerEnv, me: string, now: string): Promise<TriageCounts> {
  const row = await bounded(
    database(env.ENQUIRIES)
      .prepare(
        `SELECT
           COALESCE(SUM(triage = 'new'), 0) AS new,
           COALESCE(SUM(triage = 'open'), 0) AS open,
           COALESCE(SUM(triage = 'replied'), 0) AS replied,
           COALESCE(SUM(triage = 'closed'), 0) AS closed,
           COALESCE(SUM(triage IN ('new', 'open') AND reply_by < ?1), 0) AS overdue,
           COALESCE(SUM(triage != 'closed' AND lower(owner) = ?2), 0) AS mine,
           COALESCE(SUM(triage != 'closed' AND owner IS NULL), 0) AS unassigned
         FROM enquiries`,
      )
      .bind(now, me.toLowerCase())
      .first<TriageCounts>(),
  )
  return row ?? { new: 0, open: 0, replied: 0, closed: 0, overdue: 0, mine: 0, unassigned: 0 }
}

/** The inbox's triage data for the list: the counts, the target, and each listed enquiry's triage. */
export interface TriageListData {
  me: string
  counts: TriageCounts
  setup: ReplyBySetup
  rows: Record<string, TriageView>
}

/** `records`: the listed enquiries, whose triage was read with them (store.server.ts). */
export async function triageList(
  env: WorkerEnv,
  operator: Operator,
  records: readonly EnquiryRecord[],
): Promise<TriageListData> {
  const now = new Date().toISOString()
  const [counts] = await Promise.all([triageCounts(env, operator.email, now), seeOperator(env, operator.email, now)])
  const rows = Object.fromEntries(
    records.flatMap((record) => (record.triage ? [[record.id, triageView(record.triage, now)]] : [])),
  )
  return { me: operator.email, counts, setup: replyBySetup(env), rows }
}

/** A note on an enquiry, as the page shows it. */
export interface TriageNote {
  author: string
  at: string
  text: string
}

export async function notesOf(env: WorkerEnv, id: string): Promise<TriageNote[]> {
  const { results } = await bounded(
    database(env.ENQUIRIES)
      .prepare(
        'SELECT author, created_at AS at, body AS text FROM enquiry_notes WHERE enquiry_id = ?1 ORDER BY created_at, id',
      )
      .bind(id)
      .all<TriageNote>(),
  )
  return results.map((row) => ({ author: row.author, at: row.at, text: row.text }))
}

/** Records that an operator opened the inbox (once they are in it, they can be assigned enquiries). */
export async function seeOperator(env: WorkerEnv, email: string, now: string): Promise<void> {
  await bounded(
    database(env.ENQUIRIES)
      .prepare(
        'INSERT INTO inbox_operators (email, seen_at) VALUES (lower(?1), ?2) ON CONFLICT (email) DO UPDATE SET seen_at = excluded.seen_at',
      )
      .bind(email, now)
      .run(),
  )
}

/**
 * Whom an enquiry may be assigned to: the addresses in ACCESS_ALLOWED_EMAILS when it is set (only
 * they can open the inbox); otherwise every operator the inbox has seen (`inbox_operators`, and
 * whoever marked one handled before triage existed) and the operator asking. Sorted, lower case.
 */
export async function knownOperators(env: WorkerEnv, me: string): Promise<string[]> {
  const allowed = (env.ACCESS_ALLOWED_EMAILS ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean)
  if (allowed.length) return [...new Set(allowed)].sort()
  const { results } = await bounded(
    database(env.ENQUIRIES)
      .prepare(
        `SELECT email FROM inbox_operators
         UNION SELECT lower(handled_by) FROM enquiries WHERE handled_by IS NOT NULL
         LIMIT 200`,
      )
      .all<{ email: string }>(),
  )
  return [...new Set([me.toLowerCase(), ...results.map((row) => row.email)])].sort()
}

/** One enquiry's triage for its page: state, owner, reply-by, notes, and whom it may be assigned to. */
export interface TriageDetail extends TriageView {
  me: string
  notes: TriageNote[]
  operators: string[]
}

/**
 * Its page opened by an operator: a new enquiry becomes open (after its reply-by is written, so
 * the target holds), then its triage is read.
 */
export async function openTriage(env: WorkerEnv, id: string, operator: Operator): Promise<TriageDetail | null> {
  await Promise.all([fillReplyBy(env), seeOperator(env, operator.email, new Date().toISOString())])
  const d1 = database(env.ENQUIRIES)
  await bounded(d1.prepare(`UPDATE enquiries SET triage = 'open' WHERE id = ?1 AND triage = 'new'`).bind(id).run())
  const row = await bounded(
    d1.prepare('SELECT id, triage, outcome, owner, reply_by FROM enquiries WHERE id = ?1').bind(id).first<TriageRow>(),
  )
  if (!row) return null
  const [notes, operators] = await Promise.all([notesOf(env, id), knownOperators(env, operator.email)])
  return { ...toView(row, new Date().toISOString()), me: operator.email, notes, operators }
}

export type TriageResult = TriageNotice | 'missing'

/**
 * Every triage action goes through here: take, assign, set state, close with an outcome, add a
 * note. Reads the enquiry's triage, checks the move (`transition`), and writes it only while the
 * triage is still what was read: when another operator changed it meanwhile, nothing is written
 * and the answer is `triage-stale`. Assigning names one of `knownOperators`.
 */
export async function applyTriageAction(
  env: WorkerEnv,
  operator: Operator,
  enquiryId: string,
  action: TriageAction,
  now = new Date().toISOString(),
): Promise<TriageResult> {
  const d1 = database(env.ENQUIRIES)
  const row = await bounded(
    d1
      .prepare('SELECT id, triage, outcome, owner, reply_by FROM enquiries WHERE id = ?1')
      .bind(enquiryId)
      .first<TriageRow>(),
  )
  if (!row) return 'missing'
  if (action.kind === 'assign' && action.owner !== null) {
    const owner = action.owner.toLowerCase()
    if (!(await knownOperators(env, operator.email)).includes(owner)) return 'triage-unknown-operator'
    action = { kind: 'assign', owner }
  }
  const current = toView(row, now)
  const move = transition(current, action, operator.email)
  if (!move.ok) return move.notice
  // Only while it is as read: the stored values, compared as stored.
  const unchanged = 'id = ?1 AND triage = ?2 AND outcome IS ?3 AND owner IS ?4'
  const update = d1
    .prepare(`UPDATE enquiries SET triage = ?5, outcome = ?6, owner = ?7 WHERE ${unchanged}`)
    .bind(enquiryId, row.triage, row.outcome, row.owner, move.next.state, move.next.outcome, move.next.owner)
  if (action.kind === 'note') {
    const note = d1
      .prepare(
        `INSERT INTO enquiry_notes (enquiry_id, author, created_at, body) SELECT id, ?2, ?3, ?4 FROM enquiries WHERE id = ?1`,
      )
      .bind(enquiryId, operator.email, now, action.text)
    const [written] = await bounded(d1.batch([note, update]))
    return (written?.meta.changes ?? 0) === 1 ? move.notice : 'missing'
  }
  const result = await bounded(update.run())
  return result.meta.changes === 1 ? move.notice : 'triage-stale'
}

/** Where the action's answer sends the browser, or the error to answer with. */
export type TriageAnswer = { location: string } | { status: 400 | 404 | 503; message: string }

/**
 * `POST /admin/actions` with one of the triage actions (`triage-take`, `triage-assign` with
 * `owner`, `triage-state` with `state`, `triage-close` with `outcome`, `triage-note` with `text`)
 * and `id`: applies it and sends the operator back to the enquiry with a notice. One log line
 * `event=admin`, as for the inbox's other actions: the operator by Access's ID, never a note's text.
 */
export async function handleTriageAction(
  name: TriageActionName,
  id: string,
  form: { get(name: string): unknown },
  env: WorkerEnv,
  request: Request,
  operator: Operator,
): Promise<TriageAnswer> {
  const action = parseTriageAction(name, form)
  try {
    if (!('error' in action)) {
      // In the audit trail first (if D1 does not take the line, nothing is changed): never a note's text.
      await recordAudit(env.ENQUIRIES, {
        operator: operator.email,
        action: name,
        enquiryId: id,
        detail:
          action.kind === 'assign'
            ? `to ${action.owner ?? 'nobody'}`
            : action.kind === 'state'
              ? action.state
              : action.kind === 'close'
                ? action.outcome
                : '',
      })
    }
    const result = 'error' in action ? action.error : await applyTriageAction(env, operator, id, action)
    log('info', {
      event: 'admin',
      requestId: requestIdFor(request),
      action: name,
      operator: operator.id,
      enquiryId: id,
      result,
    })
    if (result === 'missing') return { status: 404, message: 'No such enquiry (it may have been erased).' }
    return { location: enquiryPath(id, result) }
  } catch (error) {
    log('error', { event: 'admin_error', requestId: requestIdFor(request), action: name, cause: errorCause(error) })
    return { status: 503, message: 'The enquiry database did not answer; nothing was changed. Try again.' }
  }
}
