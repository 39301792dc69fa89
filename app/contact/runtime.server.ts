import type { ContactEnv } from './deliveries/types'

export interface WorkerRuntime {
  env: ContactEnv
  /** Keeps the Worker running for work that finishes after the answer is sent. */
  waitUntil: (work: Promise<unknown>) => void
}

/** The Worker's env and `waitUntil` for this request. Read per request, never kept at module scope. */
export async function workerRuntime(): Promise<WorkerRuntime> {
  const { env, waitUntil } = await import('cloudflare:workers')
  return { env: env as ContactEnv, waitUntil }
}

/** The Worker's env for this request. */
export async function workerEnv(): Promise<ContactEnv> {
  return (await workerRuntime()).env
}
