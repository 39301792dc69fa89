import type { Enquiry } from '~/ledger'
import type { WorkerEnv } from '~/server/runtime.server'

export interface DeliveryContext {
  env: WorkerEnv
  requestId: string
  /** 10 s unless a test shortens it. */
  timeoutMs?: number
}

/** For the log line: never message text, e-mail addresses or secrets. */
export type LogDetail = Record<string, string | number | boolean>

export type DeliveryOutcome = { ok: true; detail?: LogDetail } | { ok: false; cause: string; detail?: LogDetail }

/** One way of getting an enquiry to the company, listed once in `index.server.ts`. */
export interface Delivery {
  readonly name: string
  /** Names, never values. */
  missing(env: WorkerEnv): string[]
  deliver(enquiry: Enquiry, context: DeliveryContext): Promise<DeliveryOutcome>
}
