import { bounded, database } from '~/server/d1.server'

/** Held enquiries in bulk (a flood leaves hundreds); every query reads the `enquiries_held` index. */

/** All, or one UTC day's (`2026-11-24`), or one reason's, or both. */
export interface HeldSelection {
  day?: string
  reason?: string
}

export interface HeldSummary {
  total: number
  days: { day: string; count: number }[]
  reasons: { reason: string; count: number }[]
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const REASON = /^[a-z][a-z_]{0,39}$/

/** Null when a value is malformed: nothing else reaches a query. */
export function parseHeldSelection(input: { day?: unknown; reason?: unknown }): HeldSelection | null {
  const day = input.day === undefined || input.day === null || input.day === '' ? undefined : String(input.day)
  const reason =
    input.reason === undefined || input.reason === null || input.reason === '' ? undefined : String(input.reason)
  if (day !== undefined && (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00.000Z`)))) return null
  if (reason !== undefined && !REASON.test(reason)) return null
  return { day, reason }
}

function where(selection: HeldSelection, until?: string): { sql: string; params: string[] } {
  const conditions = [`status = 'held'`]
  const params: string[] = []
  if (selection.day) {
    const next = new Date(Date.parse(`${selection.day}T00:00:00.000Z`) + 86_400_000).toISOString()
    params.push(`${selection.day}T00:00:00.000Z`, next)
    conditions.push(`received_at >= ?${params.length - 1} AND received_at < ?${params.length}`)
  }
  if (selection.reason) {
    params.push(selection.reason)
    conditions.push(`held_reason = ?${params.length}`)
  }
  if (until) {
    params.push(until)
    conditions.push(`received_at <= ?${params.length}`)
  }
  return { sql: `WHERE ${conditions.join(' AND ')}`, params }
}

export async function heldSummary(db: D1Database | undefined): Promise<HeldSummary> {
  const d1 = database(db)
  const [days, reasons] = await bounded(
    d1.batch([
      d1.prepare(
        `SELECT substr(received_at, 1, 10) AS day, COUNT(*) AS count FROM enquiries WHERE status = 'held'
         GROUP BY day ORDER BY day DESC`,
      ),
      d1.prepare(
        `SELECT COALESCE(held_reason, '') AS reason, COUNT(*) AS count FROM enquiries WHERE status = 'held'
         GROUP BY reason ORDER BY count DESC, reason`,
      ),
    ]),
  )
  const byDay = (days?.results ?? []) as { day: string; count: number }[]
  return {
    total: byDay.reduce((n, row) => n + row.count, 0),
    days: byDay,
    reasons: (reasons?.results ?? []) as { reason: string; count: number }[],
  }
}

/** With the newest one's time, the erasure's bound. */
export async function countHeld(
  db: D1Database | undefined,
  selection: HeldSelection,
): Promise<{ count: number; newest: string | null }> {
  const { sql, params } = where(selection)
  const row = await bounded(
    database(db)
      .prepare(`SELECT COUNT(*) AS count, MAX(received_at) AS newest FROM enquiries ${sql}`)
      .bind(...params)
      .first<{ count: number; newest: string | null }>(),
  )
  return { count: row?.count ?? 0, newest: row?.newest ?? null }
}

/** Up to `until`, the newest the operator was shown: one held a moment later is not erased unseen. */
export async function eraseHeld(db: D1Database | undefined, selection: HeldSelection, until: string): Promise<number> {
  const { sql, params } = where(selection, until)
  const { results } = await bounded(
    database(db)
      .prepare(`DELETE FROM enquiries ${sql} RETURNING id`)
      .bind(...params)
      .all<{ id: string }>(),
  )
  return results.length
}
