import type { WorkerEnv } from '~/server/runtime.server'
import { email } from './email.server'
import { formService } from './form-service.server'
import type { Delivery } from './types'

/** Every delivery, by the name `CONTACT_DELIVERY` selects it with. A new one is a module and a line here. */
export const DELIVERIES = {
  'form-service': formService,
  email,
} as const satisfies Record<string, Delivery>

export type DeliveryName = keyof typeof DELIVERIES

export const DEFAULT_DELIVERY: DeliveryName = 'form-service'

/** `CONTACT_DELIVERY=none`: enquiries are stored in D1 only, and delivered by nobody. */
export const STORE_ONLY = 'none'

export function isDeliveryName(value: string): value is DeliveryName {
  return Object.hasOwn(DELIVERIES, value)
}

export interface DeliveryPlan {
  /** What `CONTACT_DELIVERY` asks for (the default when unset). */
  requested: string
  /** The delivery to attempt, or null when none is asked for or it lacks what it needs. */
  delivery: Delivery | null
  /** True when the requested delivery has everything it needs (always true for `none`). */
  configured: boolean
  /** Names of what the requested delivery lacks (never values). */
  missing: string[]
}

/**
 * Decides, per request and per cron run, how stored enquiries are delivered. A delivery that
 * lacks its secret or binding is not attempted: the enquiries wait, pending, until it is set.
 */
export function planDelivery(env: WorkerEnv): DeliveryPlan {
  const requested = env.CONTACT_DELIVERY?.trim() || DEFAULT_DELIVERY
  if (requested === STORE_ONLY) return { requested, delivery: null, configured: true, missing: [] }
  if (!isDeliveryName(requested)) return { requested, delivery: null, configured: false, missing: ['CONTACT_DELIVERY'] }
  const missing = DELIVERIES[requested].missing(env)
  return {
    requested,
    delivery: missing.length === 0 ? DELIVERIES[requested] : null,
    configured: missing.length === 0,
    missing,
  }
}
