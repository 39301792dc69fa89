import type { WorkerEnv } from '~/server/runtime.server'
import { email } from './email.server'
import { formService } from './form-service.server'
import type { Delivery } from './types'

/** By the name `CONTACT_DELIVERY` selects. A new way of delivering (a webhook, say) is a module beside these and a line here. */
export const DELIVERIES = {
  'form-service': formService,
  email,
} as const satisfies Record<string, Delivery>

export type DeliveryName = keyof typeof DELIVERIES

export const DEFAULT_DELIVERY: DeliveryName = 'form-service'

/** `CONTACT_DELIVERY=none`: stored in D1 only. */
export const STORE_ONLY = 'none'

export function isDeliveryName(value: string): value is DeliveryName {
  return Object.hasOwn(DELIVERIES, value)
}

export interface DeliveryPlan {
  requested: string
  /** Null when none is asked for, or it lacks what it needs. */
  delivery: Delivery | null
  configured: boolean
  /** Names, never values. */
  missing: string[]
}

/** Per request and per cron run: a delivery that lacks its secret or binding is not attempted; enquiries wait. */
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
