import type { Enquiry } from '../enquiry'
import type { TurnstileEnv } from '../turnstile.server'

/**
 * The part of the Worker env the contact flow reads. Every entry may be missing at run time
 * (a fresh clone has no secret; a deployment may lack a binding), whatever the generated type says.
 */
export type ContactEnv = Partial<
  Pick<
    Env,
    | 'CONTACT_DELIVERY'
    | 'CONTACT_FORM_ENDPOINT'
    | 'CONTACT_FORM_ACCESS_KEY'
    | 'CONTACT_EMAIL_FROM'
    | 'CONTACT_EMAIL'
    | 'CONTACT_RETRY_DELAYS'
    | 'CONTACT_RATE_LIMITER'
    | 'CONTACT_NETWORK_RATE_LIMITER'
    | 'ENQUIRIES'
  >
> &
  TurnstileEnv

export interface DeliveryContext {
  env: ContactEnv
  requestId: string
  /** Upper bound for calls to other services; production default 10 s. */
  timeoutMs?: number
}

/** Details for the log line: never message text, e-mail addresses or secrets. */
export type LogDetail = Record<string, string | number | boolean>

export type DeliveryResult = { ok: true; detail?: LogDetail } | { ok: false; cause: string; detail?: LogDetail }

/**
 * One way of getting an enquiry to the company. Each lives in its own module in this folder
 * and is listed once in `index.server.ts`.
 */
export interface Delivery {
  readonly name: string
  /** Names of the secrets, vars or bindings this delivery needs and the env lacks. Never values. */
  missing(env: ContactEnv): string[]
  deliver(enquiry: Enquiry, context: DeliveryContext): Promise<DeliveryResult>
}
