/** The generated `Env` with every entry optional: any may be missing at run time (a fresh clone has none). */
export type WorkerEnv = Partial<Env & UnlistedSecrets>

/** With `[secrets] required`, typegen lists only the required secrets; these are optional. */
interface UnlistedSecrets {
  TURNSTILE_SECRET_KEY: string
  /** The receipt is off without it. */
  RECEIPT_LINK_SECRET: string
  /** Early access is off without it. */
  EARLY_ACCESS_LINK_SECRET: string
  /** Webhooks (docs/integrations.md): none without them. */
  WEBHOOK_ENDPOINTS: string
  WEBHOOK_SECRETS: string
}

export interface WorkerRuntime {
  env: WorkerEnv
  waitUntil: (work: Promise<unknown>) => void
}

/** Read per request, never kept at module scope. */
export async function workerRuntime(): Promise<WorkerRuntime> {
  const { env, waitUntil } = await import('cloudflare:workers')
  return { env: env as WorkerEnv, waitUntil }
}

export async function workerEnv(): Promise<WorkerEnv> {
  return (await workerRuntime()).env
}
