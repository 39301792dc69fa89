/** The contact rate limiter's period in seconds, from wrangler.toml (scripts/wrangler-facts.ts). */
declare const __CONTACT_RATE_LIMIT_PERIOD__: number
