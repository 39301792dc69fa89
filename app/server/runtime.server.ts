/**
 * The Worker's env as every part of the Worker reads it: the generated `Env`
 * (`worker-configuration.d.ts`, written by `npm run cf-typegen` from wrangler.toml and
 * `.dev.vars.example`) with every entry optional, because any may be missing at run time (a fresh
 * clone has no secret; a deployment may lack a binding), whatever the generated type says.
 * `.dev.vars.example` documents each variable.
 */
export type WorkerEnv = Partial<Env & UnlistedSecrets>

/**
 * Secrets the generated type does not list: with `[secrets] required` in wrangler.toml, typegen
 * lists only the required ones, and Turnstile's secret is optional (Turnstile is off without it).
 */
interface UnlistedSecrets {
  /** Turnstile's secret key, for siteverify (`wrangler secret put TURNSTILE_SECRET_KEY`). */
  TURNSTILE_SECRET_KEY: string
  /** Signs the receipt's withdraw link (`wrangler secret put RECEIPT_LINK_SECRET`); the receipt is off without it. */
  RECEIPT_LINK_SECRET: string
}

export interface WorkerRuntime {
  env: WorkerEnv
  /** Keeps the Worker running for work that finishes after the answer is sent. */
  waitUntil: (work: Promise<unknown>) => void
}

/** The Worker's env and `waitUntil` for this request. Read per request, never kept at module scope. */
export async function workerRuntime(): Promise<WorkerRuntime> {
  const { env, waitUntil } = await import('cloudflare:workers')
  return { env: env as WorkerEnv, waitUntil }
}

/** The Worker's env for this request. */
export async function workerEnv(): Promise<WorkerEnv> {
  return (await workerRuntime()).env
}
