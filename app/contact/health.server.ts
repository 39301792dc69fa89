import { ledgerReadable } from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { planDelivery } from './deliveries/index.server'
import { turnstileSetup } from './turnstile.server'

/** What the public `/api/health` says: whether the site can take enquiries (a broken schema cannot). */
export async function publicHealth(env: WorkerEnv): Promise<{ ok: boolean }> {
  return { ok: await ledgerReadable(env.ENQUIRIES) }
}

/** The delivery set-up, for operators (the desk), never for the public. */
export interface HealthReport {
  /** True when enquiries can be accepted: the enquiry database is bound. */
  ok: boolean
  ledger: boolean
  /** The delivery in effect: the requested one when it has what it needs, else `none`. */
  delivery: string
  configured: boolean
  requested: string
  /** Names (never values) of what the requested delivery lacks. */
  missing: string[]
  rateLimiter: boolean
  /** Turnstile on the contact form: on, off, or one key set without the other (its name). */
  turnstile: 'on' | 'off' | { missing: string[] }
}

export function healthReport(env: WorkerEnv): HealthReport {
  const plan = planDelivery(env)
  const turnstile = turnstileSetup(env)
  return {
    ok: Boolean(env.ENQUIRIES),
    ledger: Boolean(env.ENQUIRIES),
    delivery: plan.delivery?.name ?? 'none',
    configured: plan.configured,
    requested: plan.requested,
    missing: plan.missing,
    rateLimiter: Boolean(env.CONTACT_RATE_LIMITER && env.CONTACT_NETWORK_RATE_LIMITER),
    turnstile: turnstile.on ? 'on' : turnstile.missing.length ? { missing: turnstile.missing } : 'off',
  }
}
