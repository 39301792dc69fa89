import type { ContactEnv } from './deliveries/types'

/** The Worker's env for this request. Read per request, never kept at module scope. */
export async function workerEnv(): Promise<ContactEnv> {
  const { env } = await import('cloudflare:workers')
  return env as ContactEnv
}
