/** The contact rate limiter's period in seconds, from wrangler.toml (scripts/wrangler-facts.ts). */
declare const __CONTACT_RATE_LIMIT_PERIOD__: number
/** `client`: CONTACT_RATE_LIMITER (an address, an IPv6 /64); `network`: an IPv4 /24, an IPv6 /48. */
declare const __CONTACT_RATE_LIMITS__: {
  client: { limit: number; period: number }
  network: { limit: number; period: number }
}
