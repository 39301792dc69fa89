import {
  type EnquiryRecord,
  earlyAccessMoves,
  enquiryCounts,
  eraseEnquiry,
  fillReplyBy,
  getEnquiry,
  recentAttempts,
  recentWebhookAttempts,
} from '~/ledger/index.server'
import { bounded, database } from '~/server/d1.server'
import { errorCause, log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { alertDue, alertMessage, endpointStreaks, failureStreak, webhookAlertMessage } from './alert'
import { digestDueDay, digestMessage, utcDay } from './digest'
import { giveUpMessage, replyToVisitor } from './enquiry-mail'
import { type EmailMessageConstructor, sendEmail, toCompany } from './mail.server'
import { isPlainAddress, type PlainTextEmail } from './message'
import { enquiryReference, mailboxKey, receiptMessage } from './receipt'
import {
  checkWithdrawLink,
  type LinkCheck,
  networkHash,
  recipientHash,
  signWithdrawLink,
  withdrawUrl,
} from './receipt-link'
import { earlyAccessSetup, noticesSetup } from './setup'

// Each notice is claimed in D1 with one statement, so it goes once however many instances run.

const deskLink = () => `${site.url.replace(/\/+$/, '')}/admin`

/** Throws what failed: the caller logs it (and gives its claim back). */
async function send(env: WorkerEnv, mail: PlainTextEmail): Promise<void> {
  const sent = await sendEmail(env, mail)
  if (!sent.ok) throw sent.error ?? new Error(sent.cause)
}

export async function sendGiveUpNotice(
  env: WorkerEnv,
  record: EnquiryRecord,
  cause: string,
  attempts: number,
  EmailMessageClass?: EmailMessageConstructor,
): Promise<boolean> {
  const message = giveUpMessage(record, cause, attempts)
  const mail = toCompany(env, {
    ...message,
    replyTo: replyToVisitor(record),
    messageId: `notice.${record.id}.${Date.now()}`,
  })
  return (await sendEmail(env, mail, EmailMessageClass)).ok
}

/** Once a day from DIGEST_HOUR_UTC on; `not_due` before the hour or once sent. */
export async function sendDigest(env: WorkerEnv, now: Date): Promise<'sent' | 'not_due' | 'off' | 'failed'> {
  const setup = noticesSetup(env).digest
  if (!setup.on) return 'off'
  const day = digestDueDay(now, setup.hourUtc)
  if (!day) return 'not_due'
  const db = database(env.ENQUIRIES)
  const claimed = await bounded(
    db
      .prepare(
        `INSERT INTO notices (kind, key, sent_at) VALUES ('digest', ?1, ?2) ON CONFLICT DO NOTHING RETURNING key`,
      )
      .bind(day, now.toISOString())
      .first<{ key: string }>(),
  )
  if (!claimed) return 'not_due'
  await fillReplyBy(env)
  const counts = await enquiryCounts(env.ENQUIRIES, now)
  const moves = await earlyAccessMoves(env.ENQUIRIES, new Date(now.getTime() - 86_400_000).toISOString())
  // Its lines while the signup is on, or while the day saw a move.
  const earlyAccess = earlyAccessSetup(env).on || moves.confirmed + moves.left > 0 ? moves : undefined
  const message = digestMessage(counts, { siteName: site.name, deskLink: deskLink(), day, earlyAccess })
  try {
    await send(env, toCompany(env, { ...message, messageId: `digest.${day}` }))
  } catch (error) {
    // Given back, so the next run tries again.
    await bounded(db.prepare(`DELETE FROM notices WHERE kind = 'digest' AND key = ?1`).bind(day).run())
    log('error', { event: 'notice', notice: 'digest', outcome: 'failed', cause: errorCause(error) })
    return 'failed'
  }
  log('info', { event: 'notice', notice: 'digest', outcome: 'sent', day, ...counts })
  return 'sent'
}

/** At most one per cause an hour. */
export async function sendAlert(env: WorkerEnv, now: Date): Promise<'sent' | 'none' | 'off' | 'failed'> {
  const setup = noticesSetup(env).alerts
  if (!setup.on) return 'off'
  const db = database(env.ENQUIRIES)
  const streak = failureStreak(await recentAttempts(db, 200), setup.after)
  if (!streak) return 'none'
  if (!(await claimAlert(db, streak.cause, streak, now))) return 'none'
  const message = alertMessage(streak, { siteName: site.name, deskLink: deskLink(), now })
  try {
    await send(env, toCompany(env, { ...message, messageId: `alert.${now.getTime()}` }))
  } catch (error) {
    log('error', { event: 'notice', notice: 'alert', outcome: 'failed', cause: errorCause(error) })
    return 'failed'
  }
  log('warn', {
    event: 'notice',
    notice: 'alert',
    outcome: 'sent',
    cause: streak.cause,
    enquiries: streak.enquiryIds.length,
  })
  return 'sent'
}

/** Compare-and-set: only the run that saw the same last alert claims the next. */
async function claimAlert(db: D1Database, key: string, streak: { latestAt: string }, now: Date): Promise<boolean> {
  const last = await bounded(
    db.prepare(`SELECT sent_at FROM notices WHERE kind = 'alert' AND key = ?1`).bind(key).first<{ sent_at: string }>(),
  )
  const lastSentAt = last?.sent_at ?? null
  if (!alertDue(streak, lastSentAt, now)) return false
  const claimed = await bounded(
    db
      .prepare(
        `INSERT INTO notices (kind, key, sent_at) VALUES ('alert', ?1, ?2)
         ON CONFLICT (kind, key) DO UPDATE SET sent_at = excluded.sent_at WHERE notices.sent_at = ?3
         RETURNING key`,
      )
      .bind(key, now.toISOString(), lastSentAt)
      .first<{ key: string }>(),
  )
  return claimed !== null
}

/** At most once an hour per endpoint failing ALERT_AFTER_FAILURES attempts in a row. */
export async function sendWebhookAlerts(
  env: WorkerEnv,
  now: Date,
  hosts: ReadonlyMap<string, string>,
): Promise<number> {
  const setup = noticesSetup(env).alerts
  if (!setup.on) return 0
  const db = database(env.ENQUIRIES)
  let sent = 0
  for (const streak of endpointStreaks(await recentWebhookAttempts(db, 500), setup.after)) {
    if (!(await claimAlert(db, `webhook:${streak.endpoint}`, streak, now))) continue
    const message = webhookAlertMessage(streak, {
      siteName: site.name,
      host: hosts.get(streak.endpoint) ?? null,
      now,
    })
    try {
      await send(env, toCompany(env, { ...message, messageId: `alert.webhook.${now.getTime()}` }))
      sent++
      log('warn', {
        event: 'notice',
        notice: 'alert',
        outcome: 'sent',
        endpoint: streak.endpoint,
        cause: streak.cause,
        failures: streak.failures,
      })
    } catch (error) {
      log('error', { event: 'notice', notice: 'alert', outcome: 'failed', cause: errorCause(error) })
    }
  }
  return sent
}

/** Receipt days before yesterday, digest days over 30 days old. */
async function purgeNotices(env: WorkerEnv, now: Date): Promise<void> {
  const db = database(env.ENQUIRIES)
  const yesterday = utcDay(new Date(now.getTime() - 86_400_000))
  const monthAgo = utcDay(new Date(now.getTime() - 30 * 86_400_000))
  await bounded(
    db.batch([
      db.prepare('DELETE FROM receipt_days WHERE day < ?1').bind(yesterday),
      db.prepare('DELETE FROM receipt_counts WHERE day < ?1').bind(yesterday),
      db.prepare(`DELETE FROM notices WHERE kind = 'digest' AND key < ?1`).bind(monthAgo),
    ]),
  )
}

/** The alerts first (they are urgent); each part on its own. */
export async function runNotices(
  env: WorkerEnv,
  now = new Date(),
  webhookHosts: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  const steps: [string, () => Promise<unknown>][] = [
    ['alert', () => sendAlert(env, now)],
    ['webhook_alert', () => sendWebhookAlerts(env, now, webhookHosts)],
    ['digest', () => sendDigest(env, now)],
    ['purge', () => purgeNotices(env, now)],
  ]
  for (const [notice, step] of steps) {
    try {
      await step()
    } catch (error) {
      log('error', { event: 'notice', notice, outcome: 'error', cause: errorCause(error) })
    }
  }
}

/** The receipt's bounds: the network (the flood limits' /48 or /24) and the Turnstile verdict. */
export interface ReceiptContext {
  network: string
  turnstile: 'off' | 'valid' | 'failed'
}

/** One a day per mailbox, within the day's caps. Never throws: the visitor's answer does not depend on it. */
export async function sendReceipt(
  env: WorkerEnv,
  record: EnquiryRecord,
  context: ReceiptContext,
  now = new Date(),
): Promise<string> {
  const outcome = await receiptOutcome(env, record, context, now).catch((error) => {
    log('error', {
      event: 'notice',
      notice: 'receipt',
      outcome: 'failed',
      enquiryId: record.id,
      cause: errorCause(error),
    })
    return 'failed'
  })
  if (outcome !== 'off') log('info', { event: 'notice', notice: 'receipt', outcome, enquiryId: record.id })
  return outcome
}

/** One more for `key` today, unless it has reached `cap` (then null). */
function countReceipt(db: D1Database, day: string, key: string, cap: number) {
  return db
    .prepare(
      `INSERT INTO receipt_counts (day, key, count) VALUES (?1, ?2, 1)
       ON CONFLICT (day, key) DO UPDATE SET count = count + 1 WHERE count < ?3 RETURNING count`,
    )
    .bind(day, key, cap)
    .first<{ count: number }>()
}

async function receiptOutcome(
  env: WorkerEnv,
  record: EnquiryRecord,
  context: ReceiptContext,
  now: Date,
): Promise<string> {
  const setup = noticesSetup(env).receipt
  if (!setup.on) return 'off'
  if (record.status === 'held') return 'held'
  // With Turnstile on, only an enquiry with a valid token: whatever its status says.
  if (context.turnstile === 'failed') return 'no_valid_token'
  if (!isPlainAddress(record.email)) return 'no_address'
  const secret = env.RECEIPT_LINK_SECRET as string
  const db = database(env.ENQUIRIES)
  const day = utcDay(now)
  const claimed = await bounded(
    db
      .prepare(
        'INSERT INTO receipt_days (recipient_hash, day, sent_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING RETURNING day',
      )
      .bind(await recipientHash(secret, mailboxKey(record.email)), day, now.toISOString())
      .first<{ day: string }>(),
  )
  if (!claimed) return 'daily_limit'
  // The network's cap first: a flood from one network stops there and leaves the site's cap to others.
  if (!(await bounded(countReceipt(db, day, await networkHash(secret, context.network), setup.perNetwork))))
    return 'network_cap'
  if (!(await bounded(countReceipt(db, day, 'site', setup.perSite)))) return 'site_cap'
  const link = await signWithdrawLink(secret, record.id, now)
  const message = receiptMessage({
    siteName: site.name,
    enquiryId: record.id,
    name: record.name,
    receivedAt: record.receivedAt,
    withdrawUrl: withdrawUrl(site.url, link),
    linkUntil: new Date(link.until * 1000),
    contactEmail: site.email,
  })
  await send(env, {
    from: { address: setup.from, name: site.name },
    to: { address: record.email },
    ...message,
    date: new Date(),
    messageId: `receipt.${enquiryReference(record.id)}`,
  })
  return 'sent'
}

export type WithdrawState =
  | { state: 'confirm'; reference: string; receivedAt: string }
  | { state: 'gone' }
  | { state: 'invalid' }
  | { state: 'expired' }

async function checkLink(
  env: WorkerEnv,
  fields: { id: string; until: string; sig: string },
  now: Date,
): Promise<LinkCheck> {
  if (!noticesSetup(env).receipt.on) return { ok: false, reason: 'invalid' }
  return checkWithdrawLink(env.RECEIPT_LINK_SECRET ?? '', fields, now)
}

export async function withdrawState(
  env: WorkerEnv,
  fields: { id: string; until: string; sig: string },
  now = new Date(),
): Promise<WithdrawState> {
  const check = await checkLink(env, fields, now)
  if (!check.ok) return { state: check.reason }
  const record = await getEnquiry(env.ENQUIRIES, check.id)
  if (!record) return { state: 'gone' }
  return { state: 'confirm', reference: enquiryReference(record.id), receivedAt: record.receivedAt }
}

export const WITHDRAWN_BY = 'the person who wrote (receipt link)'

export async function withdrawEnquiry(
  env: WorkerEnv,
  fields: { id: string; until: string; sig: string },
  now = new Date(),
): Promise<'erased' | 'gone' | 'invalid' | 'expired'> {
  const check = await checkLink(env, fields, now)
  if (!check.ok) return check.reason
  // Its line only when a row was erased, in the same batch: a link posted again writes once.
  const erased = await eraseEnquiry(env.ENQUIRIES, check.id, { line: { operator: WITHDRAWN_BY, action: 'withdraw' } })
  log('info', { event: 'withdraw', outcome: erased ? 'erased' : 'gone', enquiryId: check.id })
  return erased ? 'erased' : 'gone'
}
