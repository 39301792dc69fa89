// Facts that live in wrangler.toml and that the code needs at build time too, read from the file
// itself so they are written once. vite.config.ts and vitest.config.ts put them in the code with
// `define` (declared in app/build-facts.d.ts).
import { experimental_readRawConfig } from 'wrangler'

/** The contact rate limiter's period in seconds (`[[ratelimits]] CONTACT_RATE_LIMITER`, `simple.period`). */
export function contactRateLimitPeriod(path = 'wrangler.toml'): number {
  const config = experimental_readRawConfig({ config: path }).rawConfig as {
    ratelimits?: { name: string; simple?: { period?: number } }[]
  }
  const period = config.ratelimits?.find((limiter) => limiter.name === 'CONTACT_RATE_LIMITER')?.simple?.period
  if (typeof period !== 'number') throw new Error(`${path}: CONTACT_RATE_LIMITER has no simple.period`)
  return period
}

/** What the build defines: each name is a global constant in the code. */
export function buildFacts(): Record<string, string> {
  return { __CONTACT_RATE_LIMIT_PERIOD__: JSON.stringify(contactRateLimitPeriod()) }
}
