/**
 * In-memory stand-ins for the Worker bindings the contact flow uses, for unit tests:
 * a KV namespace, the rate limiter (limit per key, no time window) and a send_email binding.
 */
import type { ContactEnv } from '../../app/contact/deliveries/types'

export interface FakeKv {
  entries: Map<string, { value: string; options?: unknown }>
  put(key: string, value: string, options?: unknown): Promise<void>
  get(key: string): Promise<string | null>
}

export function fakeKv(options: { failing?: boolean } = {}): FakeKv {
  const entries = new Map<string, { value: string; options?: unknown }>()
  return {
    entries,
    async put(key, value, putOptions) {
      if (options.failing) throw new Error('KV unavailable')
      entries.set(key, { value, options: putOptions })
    },
    async get(key) {
      return entries.get(key)?.value ?? null
    },
  }
}

export interface FakeRateLimiter {
  calls: string[]
  limit(options: { key: string }): Promise<{ success: boolean }>
}

export function fakeRateLimiter(limit = 5): FakeRateLimiter {
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

/** An env as the contact flow sees it; unknown bindings are cast, as the fakes cover what is used. */
export function contactEnv(parts: Record<string, unknown>): ContactEnv {
  return parts as ContactEnv
}
