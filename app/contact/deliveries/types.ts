import type { Enquiry } from '~/ledger'
import type { WorkerEnv } from '~/server/runtime.server'

export interface DeliveryContext {
  env: WorkerEnv
  requestId: string
  /** Upper bound for calls to other services; production default 10 s. */
  timeoutMs?: number
}

/** Details for the log line: never message text, e-mail addresses or secrets. */
export type LogDetail = Record<string, string | number | boolean>

export type DeliveryOutcome = { ok: true; detail?: LogDetail } | { ok: false; cause: string; detail?: LogDetail }

/**
 * One way of getting an enquiry to the company. Each lives in its own module in this folder
 * and is listed once in `index.server.ts`.
 */
export interface Delivery {
  readonly name: string
  /** Names of the secrets, vars or bindings this delivery needs and the env lacks. Never values. */
  missing(env: WorkerEnv): string[]
  deliver(enquiry: Enquiry, context: DeliveryContext): Promise<DeliveryOutcome>
}
