import { EARLY_ACCESS_CONSENT } from '~/content/early-access'
import {
  type ConfirmAnswer,
  confirmEarlyAccess,
  earlyAccessEntry,
  type LeaveAnswer,
  leaveEarlyAccess,
  markEarlyAccessMailFailed,
  signUpEarlyAccess,
} from '~/ledger/index.server'
import { bounded, database } from '~/server/d1.server'
import { errorCause, log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { utcDay } from './digest'
import {
  checkConfirmLink,
  checkLeaveLink,
  type EarlyAccessLinkFields,
  linkUrl,
  signConfirmLink,
  signLeaveLink,
} from './early-access-link'
import { confirmationMessage } from './early-access-mail'
import { CONFIRM_PATH, LEAVE_PATH, LEAVE_POST_PATH } from './early-access-paths'
import { sendEmail } from './mail.server'
import { isPlainAddress } from './message'
import { mailboxKey } from './receipt'
import { hmac } from './receipt-link'
import { earlyAccessSetup } from './setup'

/** A signup's bounds, as a receipt's: the network (/48 or /24) and the Turnstile verdict. */
export interface SignupContext {
  network: string
  turnstile: 'off' | 'valid' | 'failed'
}

/** Never throws, and nothing of it reaches the visitor: every address gets the same answer; one log line says what happened. */
export async function signUpForEarlyAccess(
  env: WorkerEnv,
  email: string,
  context: SignupContext,
  now = new Date(),
): Promise<string> {
  const outcome = await signupOutcome(env, email, context, now).catch((error) => {
    log('error', { event: 'early_access', outcome: 'error', cause: errorCause(error) })
    return 'error'
  })
  if (outcome !== 'error') log('info', { event: 'early_access', outcome })
  return outcome
}

/** One more for `key` today unless it has reached `cap`: the receipts' table, under keys of its own. */
async function counted(db: D1Database, day: string, key: string, cap: number): Promise<boolean> {
  const row = await bounded(
    db
      .prepare(
        `INSERT INTO receipt_counts (day, key, count) VALUES (?1, ?2, 1)
         ON CONFLICT (day, key) DO UPDATE SET count = count + 1 WHERE count < ?3 RETURNING count`,
      )
      .bind(day, key, cap)
      .first<{ count: number }>(),
  )
  return row !== null
}

async function signupOutcome(env: WorkerEnv, email: string, context: SignupContext, now: Date): Promise<string> {
  const setup = earlyAccessSetup(env)
  if (!setup.on) return 'off'
  // With Turnstile on, nothing is stored or sent without a valid token.
  if (context.turnstile === 'failed') return 'no_valid_token'
  if (!isPlainAddress(email.trim())) return 'no_address'
  const { entry, send } = await signUpEarlyAccess(env.ENQUIRIES, email, EARLY_ACCESS_CONSENT.version, now)
  if (!send) return 'already_confirmed'
  const secret = env.EARLY_ACCESS_LINK_SECRET as string
  const db = database(env.ENQUIRIES)
  const day = utcDay(now)
  const claimed = await bounded(
    db
      .prepare(
        'INSERT INTO receipt_days (recipient_hash, day, sent_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING RETURNING day',
      )
      .bind(await hmac(secret, `early-access recipient\n${mailboxKey(email)}`), day, now.toISOString())
      .first<{ day: string }>(),
  )
  if (!claimed) return 'daily_limit'
  if (!(await counted(db, day, `early-access ${await hmac(secret, `network\n${context.network}`)}`, setup.perNetwork)))
    return 'network_cap'
  if (!(await counted(db, day, 'early-access site', setup.perSite))) return 'site_cap'
  const confirm = await signConfirmLink(secret, entry.id, now)
  const leave = await signLeaveLink(secret, entry.id)
  const message = confirmationMessage({
    siteName: site.name,
    productName: site.product.name,
    confirmUrl: linkUrl(site.url, CONFIRM_PATH, confirm),
    leaveUrl: linkUrl(site.url, LEAVE_PATH, leave),
    linkUntil: new Date(Number(confirm.until) * 1000),
  })
  const sent = await sendEmail(env, {
    from: { address: setup.from, name: site.name },
    to: { address: email.trim() },
    ...message,
    date: now,
    messageId: `early-access.${entry.id}.${now.getTime()}`,
    oneClickUnsubscribe: linkUrl(site.url, LEAVE_POST_PATH, leave),
  })
  if (sent.ok) return 'sent'
  // Logged and kept for the desk, never retried: the visitor can ask again tomorrow.
  await markEarlyAccessMailFailed(env.ENQUIRIES, entry.id, now)
  log('error', {
    event: 'early_access',
    outcome: 'mail_failed',
    cause: sent.cause,
    errorName: sent.detail?.errorName,
    entryId: entry.id,
  })
  return 'mail_failed'
}

/** Tells the company's tools (the webhooks, a floor above) of a subscriber's move; it never throws. */
export type SubscriberMoved = (entryId: string, type: 'subscriber.confirmed' | 'subscriber.left') => Promise<void>

export type ConfirmPageState = { state: 'confirm' } | { state: ConfirmAnswer | 'invalid' | 'expired' }

function secretOf(env: WorkerEnv): string {
  return earlyAccessSetup(env).on ? (env.EARLY_ACCESS_LINK_SECRET ?? '') : ''
}

/** The confirm page's GET: shows, never changes. */
export async function confirmPageState(
  env: WorkerEnv,
  fields: EarlyAccessLinkFields,
  now = new Date(),
): Promise<ConfirmPageState> {
  const check = await checkConfirmLink(secretOf(env), fields, now)
  if (!check.ok) return { state: check.reason }
  const entry = await earlyAccessEntry(env.ENQUIRIES, check.id)
  if (entry?.state === 'pending') return { state: 'confirm' }
  return { state: entry?.state === 'confirmed' ? 'already' : entry?.state === 'left' ? 'left' : 'gone' }
}

/** The confirm page's POST; with the leave link's signature once confirmed, for the page after. */
export async function confirmByLink(
  env: WorkerEnv,
  fields: EarlyAccessLinkFields,
  now = new Date(),
  moved?: SubscriberMoved,
): Promise<{ result: ConfirmAnswer | 'invalid' | 'expired'; leave?: { id: string; sig: string } }> {
  const check = await checkConfirmLink(secretOf(env), fields, now)
  if (!check.ok) return { result: check.reason }
  const result = await confirmEarlyAccess(env.ENQUIRIES, check.id, now)
  if (result === 'confirmed') await moved?.(check.id, 'subscriber.confirmed')
  log('info', { event: 'early_access', outcome: result === 'confirmed' ? 'confirmed' : `confirm_${result}` })
  const leave =
    result === 'confirmed' || result === 'already' ? await signLeaveLink(secretOf(env), check.id) : undefined
  return { result, leave }
}

export type LeavePageState = { state: 'leave' } | { state: LeaveAnswer | 'invalid' }

export async function leavePageState(env: WorkerEnv, fields: { id: string; sig: string }): Promise<LeavePageState> {
  const check = await checkLeaveLink(secretOf(env), fields)
  if (!check.ok) return { state: 'invalid' }
  const entry = await earlyAccessEntry(env.ENQUIRIES, check.id)
  if (entry?.state === 'pending' || entry?.state === 'confirmed') return { state: 'leave' }
  return { state: entry ? 'already' : 'gone' }
}

export async function leaveByLink(
  env: WorkerEnv,
  fields: { id: string; sig: string },
  how: 'page' | 'one-click',
  now = new Date(),
  moved?: SubscriberMoved,
): Promise<LeaveAnswer | 'invalid'> {
  const check = await checkLeaveLink(secretOf(env), fields)
  if (!check.ok) return 'invalid'
  // Only a confirmed address ever reached the company's tools.
  const wasConfirmed = (await earlyAccessEntry(env.ENQUIRIES, check.id))?.state === 'confirmed'
  const result = await leaveEarlyAccess(env.ENQUIRIES, check.id, now)
  if (result === 'left' && wasConfirmed) await moved?.(check.id, 'subscriber.left')
  log('info', { event: 'early_access', outcome: result === 'left' ? 'left' : `leave_${result}`, how })
  return result
}

/** For the CSRF check: a one-click POST (RFC 8058) passes on its signed token alone. */
export async function isSignedLeave(env: WorkerEnv, url: URL): Promise<boolean> {
  if (url.pathname !== LEAVE_POST_PATH) return false
  const id = url.searchParams.get('id') ?? ''
  const sig = url.searchParams.get('sig') ?? ''
  return (await checkLeaveLink(secretOf(env), { id: id.slice(0, 100), sig: sig.slice(0, 100) })).ok
}
