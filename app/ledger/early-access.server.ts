import { bounded, database } from '~/server/d1.server'
import {
  addressKey,
  type ConfirmAnswer,
  confirmMove,
  type EarlyAccessState,
  isEarlyAccessState,
  LEFT_DAYS,
  type LeaveAnswer,
  leaveMove,
  PENDING_DAYS,
  signupMove,
} from './early-access'

/** The early-access entries (migration 0013), moved as `early-access.ts` says. */

export interface EarlyAccessEntry {
  id: string
  email: string
  state: EarlyAccessState
  consentVersion: string
  signedUpAt: string
  confirmedAt: string | null
  leftAt: string | null
  mailFailedAt: string | null
}

interface Row {
  id: string
  email: string
  state: string
  consent_version: string
  signed_up_at: string
  confirmed_at: string | null
  left_at: string | null
  mail_failed_at: string | null
}

const COLUMNS = 'id, email, state, consent_version, signed_up_at, confirmed_at, left_at, mail_failed_at'

function entryOf(row: Row | null): EarlyAccessEntry | null {
  if (!row || !isEarlyAccessState(row.state)) return null
  return {
    id: row.id,
    email: row.email,
    state: row.state,
    consentVersion: row.consent_version,
    signedUpAt: row.signed_up_at,
    confirmedAt: row.confirmed_at,
    leftAt: row.left_at,
    mailFailedAt: row.mail_failed_at,
  }
}

export const newEarlyAccessId = (): string => `ea-${crypto.randomUUID().replaceAll('-', '')}`

export async function earlyAccessEntry(db: D1Database | undefined, id: string): Promise<EarlyAccessEntry | null> {
  const row = await bounded(
    database(db).prepare(`SELECT ${COLUMNS} FROM early_access WHERE id = ?1`).bind(id).first<Row>(),
  )
  return entryOf(row)
}

async function entryByAddress(db: D1Database, key: string): Promise<EarlyAccessEntry | null> {
  return entryOf(
    await bounded(db.prepare(`SELECT ${COLUMNS} FROM early_access WHERE address_key = ?1`).bind(key).first<Row>()),
  )
}

/** The entry after a signup, and whether a confirmation should go (within the mail caps). */
export async function signUpEarlyAccess(
  db: D1Database | undefined,
  email: string,
  consentVersion: string,
  now: Date,
): Promise<{ entry: EarlyAccessEntry; send: boolean }> {
  const d1 = database(db)
  const key = addressKey(email)
  const current = await entryByAddress(d1, key)
  const move = signupMove(current?.state ?? null)
  if (!move.send && current) return { entry: current, send: false }
  const at = now.toISOString()
  if (current?.state === 'pending') {
    // Asked again: the consent line shown now, and seven more days to confirm.
    await bounded(
      d1
        .prepare(
          `UPDATE early_access SET consent_version = ?2, signed_up_at = ?3, mail_failed_at = NULL
           WHERE id = ?1 AND state = 'pending'`,
        )
        .bind(current.id, consentVersion, at)
        .run(),
    )
  } else {
    // A departed entry gives way to a new one; two signups at once: the first row stands.
    await bounded(
      d1.batch([
        d1.prepare(`DELETE FROM early_access WHERE address_key = ?1 AND state = 'left'`).bind(key),
        d1
          .prepare(
            `INSERT INTO early_access (id, email, address_key, state, consent_version, signed_up_at)
             VALUES (?1, ?2, ?3, 'pending', ?4, ?5) ON CONFLICT (address_key) DO NOTHING`,
          )
          .bind(newEarlyAccessId(), email.trim(), key, consentVersion, at),
      ]),
    )
  }
  const entry = await entryByAddress(d1, key)
  if (!entry) throw new Error('early access entry not stored')
  return { entry, send: entry.state === 'pending' }
}

export async function confirmEarlyAccess(db: D1Database | undefined, id: string, now: Date): Promise<ConfirmAnswer> {
  const d1 = database(db)
  const changed = await bounded(
    d1
      .prepare(
        `UPDATE early_access SET state = 'confirmed', confirmed_at = ?2 WHERE id = ?1 AND state = 'pending' RETURNING id`,
      )
      .bind(id, now.toISOString())
      .first<{ id: string }>(),
  )
  if (changed) return 'confirmed'
  return confirmMove((await earlyAccessEntry(d1, id))?.state ?? null).answer
}

export async function leaveEarlyAccess(db: D1Database | undefined, id: string, now: Date): Promise<LeaveAnswer> {
  const d1 = database(db)
  const changed = await bounded(
    d1
      .prepare(
        `UPDATE early_access SET state = 'left', left_at = ?2 WHERE id = ?1 AND state IN ('pending', 'confirmed') RETURNING id`,
      )
      .bind(id, now.toISOString())
      .first<{ id: string }>(),
  )
  if (changed) return 'left'
  return leaveMove((await earlyAccessEntry(d1, id))?.state ?? null).answer
}

/** The confirmation could not be sent: kept for the desk, never retried. */
export async function markEarlyAccessMailFailed(db: D1Database | undefined, id: string, now: Date): Promise<void> {
  await bounded(
    database(db).prepare('UPDATE early_access SET mail_failed_at = ?2 WHERE id = ?1').bind(id, now.toISOString()).run(),
  )
}

/** The cron's part: pending entries past their link's 7 days, departures past 30 days. */
export async function purgeEarlyAccess(
  db: D1Database | undefined,
  now: Date,
): Promise<{ pending: number; left: number }> {
  const d1 = database(db)
  const before = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()
  const [pending, left] = await bounded(
    d1.batch([
      d1.prepare(`DELETE FROM early_access WHERE state = 'pending' AND signed_up_at < ?1`).bind(before(PENDING_DAYS)),
      d1.prepare(`DELETE FROM early_access WHERE state = 'left' AND left_at < ?1`).bind(before(LEFT_DAYS)),
    ]),
  )
  return { pending: pending?.meta?.changes ?? 0, left: left?.meta?.changes ?? 0 }
}

/** `ea-` and 32 hex digits, as `newEarlyAccessId` makes them. */
export const isEarlyAccessId = (value: unknown): value is string =>
  typeof value === 'string' && /^ea-[0-9a-f]{32}$/.test(value)

export interface EarlyAccessCounts {
  pending: number
  confirmed: number
  left: number
  /** Pending entries whose confirmation could not be sent. */
  mailFailed: number
}

export async function earlyAccessCounts(db: D1Database | undefined): Promise<EarlyAccessCounts> {
  const row = await bounded(
    database(db)
      .prepare(
        `SELECT COUNT(*) FILTER (WHERE state = 'pending') AS pending,
           COUNT(*) FILTER (WHERE state = 'confirmed') AS confirmed, COUNT(*) FILTER (WHERE state = 'left') AS "left",
           COUNT(*) FILTER (WHERE state = 'pending' AND mail_failed_at IS NOT NULL) AS mailFailed
         FROM early_access`,
      )
      .first<EarlyAccessCounts>(),
  )
  return row ?? { pending: 0, confirmed: 0, left: 0, mailFailed: 0 }
}

/** The day's moves, for the digest: confirmations and departures since `since`. */
export async function earlyAccessMoves(
  db: D1Database | undefined,
  since: string,
): Promise<{ confirmed: number; left: number }> {
  const row = await bounded(
    database(db)
      .prepare(
        `SELECT COUNT(*) FILTER (WHERE confirmed_at >= ?1) AS confirmed, COUNT(*) FILTER (WHERE left_at >= ?1) AS "left"
         FROM early_access`,
      )
      .bind(since)
      .first<{ confirmed: number; left: number }>(),
  )
  return row ?? { confirmed: 0, left: 0 }
}

/** Newest signups first. */
export async function newestEarlyAccess(db: D1Database | undefined, limit: number): Promise<EarlyAccessEntry[]> {
  const { results } = await bounded(
    database(db)
      .prepare(`SELECT ${COLUMNS} FROM early_access ORDER BY signed_up_at DESC, id LIMIT ?1`)
      .bind(limit)
      .all<Row>(),
  )
  return results.map(entryOf).filter((entry) => entry !== null)
}

/** The confirmed list, oldest confirmation first, `pageSize` at a time (keyset), up to `limit`. */
export async function* confirmedEarlyAccessPages(
  db: D1Database | undefined,
  options: { pageSize: number; limit: number },
): AsyncGenerator<EarlyAccessEntry[], void> {
  const d1 = database(db)
  let after = { at: '', id: '' }
  let read = 0
  while (read < options.limit) {
    const { results } = await bounded(
      d1
        .prepare(
          `SELECT ${COLUMNS} FROM early_access WHERE state = 'confirmed' AND (confirmed_at, id) > (?1, ?2)
           ORDER BY confirmed_at, id LIMIT ?3`,
        )
        .bind(after.at, after.id, Math.min(options.pageSize, options.limit - read))
        .all<Row>(),
    )
    const page = results.map(entryOf).filter((entry) => entry !== null)
    if (page.length === 0) return
    read += page.length
    const last = page.at(-1) as EarlyAccessEntry
    after = { at: last.confirmedAt ?? '', id: last.id }
    yield page
    if (page.length < options.pageSize) return
  }
}

/** Requests by person: the address's entry, if any (its key is the address trimmed and lower-cased). */
export async function earlyAccessOf(db: D1Database | undefined, email: string): Promise<EarlyAccessEntry | null> {
  return entryByAddress(database(db), addressKey(email))
}
