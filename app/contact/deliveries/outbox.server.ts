import { type Enquiry, formatEnquiry, type OutboxRecord, outboxKey } from '../enquiry'
import type { ContactEnv, Delivery, DeliveryContext, DeliveryResult } from './types'

/** How long the outbox keeps an enquiry. */
export const OUTBOX_TTL_SECONDS = 30 * 24 * 60 * 60

/**
 * Keeps the enquiry in the `OUTBOX` KV namespace (simulated and persisted locally by miniflare;
 * read it with `npm run outbox`). On a local server the enquiry is also printed to the server log
 * as one readable block; elsewhere the log line names only the key, never the message or address.
 */
export async function keepInOutbox(
  enquiry: Enquiry,
  env: ContactEnv,
  keptBecause: string,
  local: boolean,
): Promise<DeliveryResult> {
  const kv = env.OUTBOX
  if (!kv) return { ok: false, cause: 'missing_outbox_binding' }
  const record: OutboxRecord = { ...enquiry, keptBecause }
  const key = outboxKey(enquiry)
  try {
    await kv.put(key, JSON.stringify(record), {
      expirationTtl: OUTBOX_TTL_SECONDS,
      metadata: { receivedAt: enquiry.receivedAt, subject: enquiry.subject, keptBecause },
    })
  } catch (error) {
    return { ok: false, cause: 'outbox_write_failed', detail: { errorName: (error as Error)?.name ?? 'unknown' } }
  }
  if (local)
    console.info(`\nNew enquiry kept in the local outbox (npm run outbox lists them)\n${formatEnquiry(record, key)}\n`)
  return { ok: true, detail: { outboxKey: key } }
}

export const outbox: Delivery = {
  name: 'outbox',
  missing: (env: ContactEnv) => (env.OUTBOX ? [] : ['OUTBOX']),
  deliver: (enquiry: Enquiry, context: DeliveryContext) =>
    keepInOutbox(enquiry, context.env, context.reason ?? 'outbox selected (CONTACT_DELIVERY=outbox)', context.local),
}
