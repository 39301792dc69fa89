// The contact flow's Worker bindings in memory: a rate limiter (limits per key, none by default; no
// time window), send_email and `waitUntil`. D1 is `sqliteD1()` (d1-sqlite.ts).
import type { WorkerEnv } from '../../app/server/runtime.server'

export interface FakeRateLimiter {
  calls: string[]
  limit(options: { key: string }): Promise<{ success: boolean }>
}

export function fakeRateLimiter(limit = Number.POSITIVE_INFINITY): FakeRateLimiter {
  const counts = new Map<string, number>()
  const calls: string[] = []
  return {
    calls,
    async limit({ key }) {
      calls.push(key)
      const count = (counts.get(key) ?? 0) + 1
      counts.set(key, count)
      return { success: count <= limit }
    },
  }
}

export interface SentEmail {
  from: string
  to: string
  raw: string
}

export function fakeEmailBinding(options: { failing?: boolean } = {}) {
  const sent: SentEmail[] = []
  return {
    sent,
    async send(message: unknown) {
      if (options.failing) throw new Error('email to someone not allowed')
      sent.push(message as SentEmail)
      return { messageId: `id-${sent.length}` }
    },
  }
}

/** Captures EmailMessage constructions the way `cloudflare:email` would build them. */
export class FakeEmailMessage {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly raw: string,
  ) {}
}

export function contactEnv(parts: Record<string, unknown>): WorkerEnv {
  return parts as WorkerEnv
}

/** A `waitUntil` that keeps the work it is given, and `settle()` to wait for all of it. */
export function waitUntilCollector() {
  const pending: Promise<unknown>[] = []
  return {
    pending,
    waitUntil: (work: Promise<unknown>) => {
      pending.push(work)
    },
    async settle() {
      while (pending.length > 0) await Promise.allSettled(pending.splice(0))
    },
  }
}
