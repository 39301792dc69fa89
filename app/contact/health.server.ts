import { planDelivery } from './deliveries/index.server'
import type { ContactEnv } from './deliveries/types'

export interface HealthReport {
  /** True when enquiries can be accepted: some delivery (the requested one or the outbox) is usable. */
  ok: boolean
  /** The delivery in effect: the requested one, `outbox` as fallback, or `none`. */
  delivery: string
  /** True when the requested delivery has every secret and binding it needs. */
  configured: boolean
  /** What `CONTACT_DELIVERY` asks for. */
  requested: string
  /** Names (never values) of what the requested delivery lacks. */
  missing: string[]
  /** Whether the rate limiter (CONTACT_RATE_LIMITER) is bound. */
  rateLimiter: boolean
}

export function healthReport(env: ContactEnv): HealthReport {
  const plan = planDelivery(env)
  return {
    ok: plan.delivery !== null,
    delivery: plan.delivery?.name ?? 'none',
    configured: plan.configured,
    requested: plan.requested,
    missing: plan.missing,
    rateLimiter: Boolean(env.CONTACT_RATE_LIMITER),
  }
}
