import { bounded, database } from '~/server/d1.server'
import { type AuditRecord, auditLineIf } from './audit.server'

/** The webhooks' outbox, leased as enquiries are; a trigger queues `enquiry.erased` whatever deletes one. */

export type WebhookEventStatus = 'pending' | 'delivered' | 'failed'

export interface OutboxEvent {
  id: string
  endpoint: string
  type: string
  enquiryId: string
  createdAt: string
  status: WebhookEventStatus
  attempts: number
  nextAttemptAt: string | null
  lastCause: string | null
}

export interface OutboxAttempt {
  attempt: number
  attemptedAt: string
  outcome: 'delivered' | 'failed'
  cause: string | null
  httpStatus: number | null
}

const EVENT_COLUMNS = `id, endpoint, type, enquiry_id AS enquiryId, created_at AS createdAt, status, attempts,
  next_attempt_at AS nextAttemptAt, last_cause AS lastCause`

/** An endpoint that already queued this type for the enquiry keeps its event. The ids queued now. */
export async function queueWebhookEvents(
  db: D1Database | undefined,
  events: { id: string; endpoint: string; type: string; enquiryId: string }[],
  at: string,
): Promise<string[]> {
  if (events.length === 0) return []
  const d1 = database(db)
  const results = await bounded(
    d1.batch(
      events.map((event) =>
        d1
          .prepare(
            `INSERT OR IGNORE INTO webhook_events (id, endpoint, type, enquiry_id, created_at, status, attempts, next_attempt_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 'pending', 0, ?5) RETURNING id`,
          )
          .bind(event.id, event.endpoint, event.type, event.enquiryId, at),
      ),
    ),
  )
  return results.flatMap((result) => (result.results as { id: string }[]).map((row) => row.id))
}

export async function dueWebhookEventIds(db: D1Database | undefined, now: string, limit: number): Promise<string[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT id FROM webhook_events WHERE status = 'pending' AND next_attempt_at <= ?1 ORDER BY next_attempt_at LIMIT ?2`,
      )
      .bind(now, limit)
      .all<{ id: string }>(),
  )
  return results.map((row) => row.id)
}

export interface EventClaim {
  event: OutboxEvent
  token: string
}

/** Null when it is not due (delivered, given up, or another attempt's lease is live). */
export async function claimWebhookEvent(
  db: D1Database | undefined,
  id: string,
  now: string,
  leaseUntil: string,
): Promise<EventClaim | null> {
  const token = crypto.randomUUID()
  const row = await bounded(
    database(db)
      .prepare(
        `UPDATE webhook_events SET next_attempt_at = ?2, lease_token = ?4
         WHERE id = ?1 AND status = 'pending' AND next_attempt_at <= ?3
         RETURNING ${EVENT_COLUMNS}`,
      )
      .bind(id, leaseUntil, now, token)
      .first<OutboxEvent>(),
  )
  return row ? { event: row, token } : null
}

export interface EventAttemptRecord extends OutboxAttempt {
  status: WebhookEventStatus
  nextAttemptAt: string | null
}

/** False when the lease was lost (or the event deleted with its enquiry meanwhile): nothing changed. */
export async function recordWebhookAttempt(
  db: D1Database | undefined,
  id: string,
  token: string,
  attempt: EventAttemptRecord,
): Promise<boolean> {
  const d1 = database(db)
  const results = await bounded(
    d1.batch([
      d1
        .prepare(
          `INSERT OR REPLACE INTO webhook_attempts (event_id, attempt, attempted_at, outcome, cause, http_status)
           SELECT id, ?3, ?4, ?5, ?6, ?7 FROM webhook_events WHERE id = ?1 AND lease_token = ?2`,
        )
        .bind(id, token, attempt.attempt, attempt.attemptedAt, attempt.outcome, attempt.cause, attempt.httpStatus),
      d1
        .prepare(
          `UPDATE webhook_events SET status = ?4, attempts = ?3, next_attempt_at = ?5,
             last_cause = COALESCE(?6, last_cause), lease_token = NULL
           WHERE id = ?1 AND lease_token = ?2`,
        )
        .bind(id, token, attempt.attempt, attempt.status, attempt.nextAttemptAt, attempt.cause),
    ]),
  )
  return (results[1]?.meta.changes ?? 0) === 1
}

export async function requeueWebhookEvent(
  db: D1Database | undefined,
  id: string,
  enquiryId: string,
  now: string,
  line?: Omit<AuditRecord, 'enquiryIds'>,
): Promise<boolean> {
  const d1 = database(db)
  const requeue = d1
    .prepare(
      `UPDATE webhook_events SET status = 'pending', next_attempt_at = ?3
       WHERE id = ?1 AND enquiry_id = ?2 AND (lease_token IS NULL OR next_attempt_at <= ?3)
       RETURNING id`,
    )
    .bind(id, enquiryId, now)
  if (!line) return (await bounded(requeue.first<{ id: string }>())) !== null
  // The audit line under the requeue's own condition, in its batch: a replay that finds the event busy leaves none.
  const guard = {
    sql: 'EXISTS (SELECT 1 FROM webhook_events WHERE id = ?6 AND enquiry_id = ?8 AND (lease_token IS NULL OR next_attempt_at <= ?7))',
    binds: [id, now, enquiryId],
  }
  const [, result] = await bounded(d1.batch([auditLineIf(d1, { enquiryId, ...line }, guard), requeue]))
  return (result?.results ?? []).length === 1
}

export interface EndpointHistory extends OutboxEvent {
  history: OutboxAttempt[]
}

export async function webhookEventsOf(db: D1Database | undefined, enquiryId: string): Promise<EndpointHistory[]> {
  const d1 = database(db)
  const [events, attempts] = await bounded(
    d1.batch([
      d1
        .prepare(`SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE enquiry_id = ?1 ORDER BY endpoint, type`)
        .bind(enquiryId),
      d1
        .prepare(
          `SELECT a.event_id AS eventId, a.attempt, a.attempted_at AS attemptedAt, a.outcome, a.cause, a.http_status AS httpStatus
           FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
           WHERE e.enquiry_id = ?1 ORDER BY a.attempt`,
        )
        .bind(enquiryId),
    ]),
  )
  const rows = (attempts?.results ?? []) as (OutboxAttempt & { eventId: string })[]
  return ((events?.results ?? []) as OutboxEvent[]).map((event) => ({
    ...event,
    history: rows
      .filter((row) => row.eventId === event.id)
      .map(({ eventId: _, ...attempt }) => ({
        ...attempt,
        outcome: attempt.outcome === 'delivered' ? 'delivered' : 'failed',
      })),
  }))
}

export async function webhookEvent(db: D1Database | undefined, id: string): Promise<OutboxEvent | null> {
  return bounded(
    database(db).prepare(`SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE id = ?1`).bind(id).first<OutboxEvent>(),
  )
}

export interface RecentWebhookAttempt {
  endpoint: string
  attemptedAt: string
  outcome: string
  cause: string | null
}

export async function recentWebhookAttempts(
  db: D1Database | undefined,
  limit: number,
): Promise<RecentWebhookAttempt[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT e.endpoint, a.attempted_at AS attemptedAt, a.outcome, a.cause
         FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
         ORDER BY a.attempted_at DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<RecentWebhookAttempt>(),
  )
  return results
}

/** `enquiry.erased` events hold an id and attempts only; `enquiry.received` ones go with their enquiry;
 * a subscriber's events once their entry is gone. */
export const ERASED_EVENT_RETENTION_DAYS = 30

/** Erasing an early-access entry, in the erasure's batch: each endpoint sent its `subscriber.confirmed` (or
 * attempting it) is queued a `subscriber.erased`; its other events go, since their payload was the entry. */
export function subscriberErasure(d1: D1Database, entryId: string, now: string): D1PreparedStatement[] {
  return [
    d1
      .prepare(
        `INSERT OR IGNORE INTO webhook_events (id, endpoint, type, enquiry_id, created_at, status, attempts, next_attempt_at)
         SELECT 'msg_' || lower(hex(randomblob(16))), endpoint, 'subscriber.erased', ?1, ?2, 'pending', 0, ?2
         FROM webhook_events WHERE enquiry_id = ?1 AND type = 'subscriber.confirmed'
           AND (attempts > 0 OR lease_token IS NOT NULL) AND EXISTS (SELECT 1 FROM early_access WHERE id = ?1)`,
      )
      .bind(entryId, now),
    d1
      .prepare(
        `DELETE FROM webhook_events WHERE enquiry_id = ?1 AND type IN ('subscriber.confirmed', 'subscriber.left')`,
      )
      .bind(entryId),
  ]
}

export async function purgeWebhookEvents(db: D1Database | undefined, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - ERASED_EVENT_RETENTION_DAYS * 86_400_000).toISOString()
  const { results } = await bounded(
    database(db)
      .prepare(
        `DELETE FROM webhook_events WHERE status != 'pending' AND created_at < ?1 AND (type = 'enquiry.erased'
           OR (type LIKE 'subscriber.%' AND enquiry_id NOT IN (SELECT id FROM early_access))) RETURNING id`,
      )
      .bind(cutoff)
      .all<{ id: string }>(),
  )
  return results.length
}

/** The subscriber events not delivered (given up, or waiting for a retry), newest first: the Early access page's. */
export async function undeliveredSubscriberEvents(db: D1Database | undefined, limit: number): Promise<OutboxEvent[]> {
  const { results } = await bounded(
    database(db)
      .prepare(
        `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE type LIKE 'subscriber.%'
           AND (status = 'failed' OR (status = 'pending' AND attempts > 0)) ORDER BY created_at DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<OutboxEvent>(),
  )
  return results
}
