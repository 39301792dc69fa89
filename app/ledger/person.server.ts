import { isSubject, subjectLabel } from '~/content/subjects'
import { bounded, database } from '~/server/d1.server'
import { type EarlyAccessEntry, earlyAccessOf } from './early-access.server'
import { type EnquiryStatus, isEnquiryStatus } from './record'
import { subscriberErasure } from './webhooks.server'

/** Requests by person: everything stored about one address (matched exactly, ignoring case). */

/** Rows about an enquiry (by `enquiry_id`), exported and erased with it. A new table is a line here. */
export const PERSON_TABLES = [
  { key: 'attempts', table: 'enquiry_attempts', orderBy: 'attempt' },
  { key: 'notes', table: 'enquiry_notes', orderBy: 'created_at' },
] as const

/** They say nothing about the person (the form's repeat key, a delivery's lease). */
const INTERNAL_COLUMNS = new Set(['idempotency_key', 'lease_token', 'lease_until'])

export const PERSON_EMAIL_MAX = 254

/** Trimmed, lower-cased, one `@` inside; else null. */
export function parsePersonEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const email = value.trim().toLowerCase()
  if (!email || email.length > PERSON_EMAIL_MAX || /[\s\p{Cc}]/u.test(email)) return null
  const at = email.lastIndexOf('@')
  return at > 0 && at < email.length - 1 ? email : null
}

export interface PersonEnquiry {
  id: string
  receivedAt: string
  name: string
  subjectLabel: string
  status: EnquiryStatus
  deliveredAt: string | null
  deliveredBy: string | null
}

const MATCH = 'lower(email) = ?1'

export async function personEnquiries(db: D1Database | undefined, email: string): Promise<PersonEnquiry[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT id, received_at, name, subject, status, delivered_at, delivered_by FROM enquiries
         WHERE ${MATCH} ORDER BY received_at DESC, id`,
      )
      .bind(email)
      .all<{
        id: string
        received_at: string
        name: string
        subject: string
        status: string
        delivered_at: string | null
        delivered_by: string | null
      }>(),
  )
  return results.map((row) => ({
    id: row.id,
    receivedAt: row.received_at,
    name: row.name,
    subjectLabel: isSubject(row.subject) ? subjectLabel(row.subject) : row.subject,
    status: isEnquiryStatus(row.status) ? row.status : 'pending',
    deliveredAt: row.delivered_at,
    deliveredBy: row.delivered_by,
  }))
}

/** Every stored column of each enquiry, with its rows in `PERSON_TABLES`. */
export interface PersonExport {
  email: string
  exportedAt: string
  note: string
  enquiries: Record<string, unknown>[]
  earlyAccess: EarlyAccessEntry | null
}

export async function personExport(db: D1Database | undefined, email: string, now = new Date()): Promise<PersonExport> {
  const d1 = database(db)
  const [enquiryRows, ...related] = await bounded(
    d1.batch([
      d1.prepare(`SELECT * FROM enquiries WHERE ${MATCH} ORDER BY received_at, id`).bind(email),
      ...PERSON_TABLES.map(({ table, orderBy }) =>
        d1
          .prepare(
            `SELECT * FROM ${table} WHERE enquiry_id IN (SELECT id FROM enquiries WHERE ${MATCH})
             ORDER BY enquiry_id, ${orderBy}`,
          )
          .bind(email),
      ),
    ]),
  )
  const enquiries = ((enquiryRows?.results ?? []) as Record<string, unknown>[]).map((row) => {
    const kept = Object.fromEntries(Object.entries(row).filter(([column]) => !INTERNAL_COLUMNS.has(column)))
    for (const [index, { key }] of PERSON_TABLES.entries())
      kept[key] = ((related[index]?.results ?? []) as Record<string, unknown>[])
        .filter((other) => other.enquiry_id === row.id)
        .map(({ enquiry_id: _, ...rest }) => rest)
    return kept
  })
  return {
    email,
    exportedAt: now.toISOString(),
    note: 'Everything the website’s database holds about this address. Copies delivered to the company mailbox or the form service are not included.',
    enquiries,
    earlyAccess: await earlyAccessOf(d1, email),
  }
}

/** Among `ids`, the ones the confirmation page showed: one received since is kept; with `entryId`, that
 * early-access entry if still theirs. Returns the enquiry ids erased, and whether the entry was. */
export async function erasePersonEnquiries(
  db: D1Database | undefined,
  email: string,
  ids: readonly string[],
  entryId: string | null = null,
  now = new Date(),
): Promise<{ erased: string[]; entry: boolean }> {
  const d1 = database(db)
  const entry = entryId
    ? [
        ...subscriberErasure(d1, entryId, now.toISOString()),
        d1.prepare('DELETE FROM early_access WHERE id = ?1 AND address_key = ?2 RETURNING id').bind(entryId, email),
      ]
    : []
  const chosen = `SELECT id FROM enquiries WHERE ${MATCH} AND id IN (SELECT value FROM json_each(?2))`
  const list = JSON.stringify(ids)
  const results = await bounded(
    d1.batch([
      ...PERSON_TABLES.map(({ table }) =>
        d1.prepare(`DELETE FROM ${table} WHERE enquiry_id IN (${chosen})`).bind(email, list),
      ),
      d1.prepare(`DELETE FROM enquiries WHERE id IN (${chosen}) RETURNING id`).bind(email, list),
      ...entry,
    ]),
  )
  const deleted = results[PERSON_TABLES.length]?.results ?? []
  return {
    erased: (deleted as { id: string }[]).map((row) => row.id),
    entry: entryId !== null && (results.at(-1)?.results ?? []).length === 1,
  }
}
