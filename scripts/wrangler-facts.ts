// Facts that live in wrangler.toml and that the code needs at build time too, read from the file
// itself so they are written once. vite.config.ts and vitest.config.ts put them in the code with
// `define` (declared in app/build-facts.d.ts).
import { experimental_readRawConfig } from 'wrangler'

type RateLimits = { name: string; simple?: { limit?: number; period?: number } }[]

function rateLimits(path: string): RateLimits {
  const config = experimental_readRawConfig({ config: path }).rawConfig as { ratelimits?: RateLimits }
  return config.ratelimits ?? []
}

/** One rate limiter's `simple` limit and period (`[[ratelimits]]` named `name`). */
export function rateLimit(name: string, path = 'wrangler.toml'): { limit: number; period: number } {
  const simple = rateLimits(path).find((limiter) => limiter.name === name)?.simple
  if (typeof simple?.limit !== 'number' || typeof simple.period !== 'number')
    throw new Error(`${path}: ${name} has no simple.limit and simple.period`)
  return { limit: simple.limit, period: simple.period }
}

/** The contact rate limiter's period in seconds (`[[ratelimits]] CONTACT_RATE_LIMITER`, `simple.period`). */
export function contactRateLimitPeriod(path = 'wrangler.toml'): number {
  const period = rateLimits(path).find((limiter) => limiter.name === 'CONTACT_RATE_LIMITER')?.simple?.period
  if (typeof period !== 'number') throw new Error(`${path}: CONTACT_RATE_LIMITER has no simple.period`)
  return period
}

/** What the build defines: each name is a global constant in the code. */
export function buildFacts(): Record<string, string> {
  return {
    __CONTACT_RATE_LIMIT_PERIOD__: JSON.stringify(contactRateLimitPeriod()),
    __CONTACT_RATE_LIMITS__: JSON.stringify({
      client: rateLimit('CONTACT_RATE_LIMITER'),
      network: rateLimit('CONTACT_NETWORK_RATE_LIMITER'),
    }),
  }
}
