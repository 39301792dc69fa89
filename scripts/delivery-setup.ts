// `npm run enquiries -- setup [--remote]`: the delivery set-up the Worker sees — the delivery in
// effect, the names of what it lacks, whether the rate limiter and the database are bound, whether
// Turnstile is on — computed by the Worker's own code (app/contact/health.server.ts), never
// printing a value. Locally: wrangler.toml's vars with the local variables file over them (only
// the names wrangler loads: declared vars and `[secrets] required`). Remote: wrangler.toml's vars
// (a deploy sets exactly those) and the names of the Worker's secrets (`wrangler secret list`).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'
import { experimental_readRawConfig } from 'wrangler'
import './app-modules.ts'

interface RawConfig {
  vars?: Record<string, unknown>
  secrets?: { required?: string[] }
  d1_databases?: { binding: string }[]
  ratelimits?: { name: string }[]
  send_email?: { name: string }[]
}

/** The names of the deployed Worker's secrets, or null when wrangler cannot list them (not signed in). */
function remoteSecretNames(): string[] | null {
  const result = spawnSync('npm', ['exec', '--', 'wrangler', 'secret', 'list', '--format', 'json'], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  if (result.status !== 0) return null
  try {
    const out = result.stdout ?? ''
    return (JSON.parse(out.slice(out.indexOf('['))) as { name: string }[]).map((secret) => secret.name)
  } catch {
    return null
  }
}

export async function printDeliverySetup(options: { remote: boolean; envFile?: string }): Promise<void> {
  const config = experimental_readRawConfig({ config: 'wrangler.toml' }).rawConfig as RawConfig
  const env: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(config.vars ?? {})) env[name] = String(value)
  const declared = new Set([...Object.keys(config.vars ?? {}), ...(config.secrets?.required ?? [])])
  let source: string
  if (options.remote) {
    const secrets = remoteSecretNames()
    if (!secrets) {
      console.error('wrangler could not list the Worker\u2019s secrets (signed in? `npx wrangler login`).')
      process.exit(2)
    }
    // Only whether each is set matters here; the values never leave Cloudflare.
    for (const name of secrets) env[name] = 'set'
    source = 'the deployed Worker: wrangler.toml\u2019s vars and its secrets\u2019 names'
  } else {
    const file = options.envFile ?? (existsSync('.dev.vars') ? '.dev.vars' : undefined)
    if (file)
      for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8'))))
        if (declared.has(name)) env[name] = value
    source = `this machine: wrangler.toml${file ? ` and ${file}` : ' (no .dev.vars)'}`
  }
  // Bindings declared in wrangler.toml are bound, locally and deployed.
  const bound = { binding: true }
  if (config.d1_databases?.some((db) => db.binding === 'ENQUIRIES')) env.ENQUIRIES = bound
  for (const name of ['CONTACT_RATE_LIMITER', 'CONTACT_NETWORK_RATE_LIMITER'])
    if (config.ratelimits?.some((limiter) => limiter.name === name)) env[name] = bound
  if (config.send_email?.some((binding) => binding.name === 'CONTACT_EMAIL')) env.CONTACT_EMAIL = bound

  const { healthReport } = await import('../app/contact/health.server.ts')
  const report = healthReport(env as Parameters<typeof healthReport>[0])
  const turnstile =
    report.turnstile === 'on'
      ? 'on: enquiries without a valid token are held'
      : report.turnstile === 'off'
        ? 'off'
        : `off: ${report.turnstile.missing.join(', ')} is not set`
  console.log(`Delivery set-up, as ${source}:
  Delivery in effect            ${report.delivery}
  Requested (CONTACT_DELIVERY)  ${report.requested}
  Missing                       ${report.missing.length ? report.missing.join(', ') : 'nothing: the requested delivery has what it needs'}
  Enquiry database              ${report.store ? 'bound' : 'not bound'}
  Rate limiters                 ${report.rateLimiter ? 'bound' : 'not bound: the enquiry database counts posts instead'}
  Turnstile (spam check)        ${turnstile}`)
}
