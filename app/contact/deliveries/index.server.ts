import { email } from './email.server'
import { formService } from './form-service.server'
import { outbox } from './outbox.server'
import type { ContactEnv, Delivery } from './types'

/** Every delivery, by the name `CONTACT_DELIVERY` selects it with. A new one is a module and a line here. */
export const DELIVERIES = {
  'form-service': formService,
  email,
  outbox,
} as const satisfies Record<string, Delivery>

export type DeliveryName = keyof typeof DELIVERIES

export const DEFAULT_DELIVERY: DeliveryName = 'form-service'

export function isDeliveryName(value: string): value is DeliveryName {
  return Object.hasOwn(DELIVERIES, value)
}

export interface DeliveryPlan {
  /** What `CONTACT_DELIVERY` asks for (the default when unset). */
  requested: string
  /** The delivery that will be used: the requested one, the outbox as fallback, or none. */
  delivery: Delivery | null
  /** True when the requested delivery has everything it needs. */
  configured: boolean
  /** Names of what the requested delivery lacks (never values). */
  missing: string[]
}

/**
 * Decides, per request, how enquiries are delivered. A requested delivery that lacks its secret or
 * binding falls back to the outbox, so a lead is never dropped; without an outbox there is none.
 */
export function planDelivery(env: ContactEnv): DeliveryPlan {
  const requested = env.CONTACT_DELIVERY?.trim() || DEFAULT_DELIVERY
  const missing = isDeliveryName(requested) ? DELIVERIES[requested].missing(env) : ['CONTACT_DELIVERY']
  if (isDeliveryName(requested) && missing.length === 0) {
    return { requested, delivery: DELIVERIES[requested], configured: true, missing }
  }
  const fallback = DELIVERIES.outbox.missing(env).length === 0 ? DELIVERIES.outbox : null
  return { requested, delivery: fallback, configured: false, missing }
}
