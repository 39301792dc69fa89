// `npm run enquiries -- setup [--remote]`: the delivery set-up the Worker sees — the delivery in
// effect, the names of what it lacks, whether the rate limiter and the database are bound, whether
// Turnstile is on, which notices go (digest, alerts, receipt: app/notices/setup.ts), the webhook
// endpoints by host (app/contact/webhooks.ts) — computed by
// the Worker's own code (app/contact/health.server.ts), never printing a value. Locally:
// wrangler.toml's vars with the local variables file over them (only the names wrangler loads:
// declared vars and `[secrets] required`). Remote: the version that
// serves now (`wrangler deployments status`), with that version's vars and secrets' names
// (`wrangler versions view`): after a rollback that is not the latest upload, which is what
// `wrangler secret list` would describe.
import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'
import './app-modules.ts'
import { describeServing, servingNow, viewVersion } from './ci/versions.ts'
import { readWranglerConfig } from './ops-config.ts'

const WEBHOOK_SECRETS = ['WEBHOOK_ENDPOINTS', 'WEBHOOK_SECRETS']

interface RawConfig {
  vars?: Record<string, unknown>
  secrets?: { required?: string[] }
  d1_databases?: { binding: string }[]
  ratelimits?: { name: string }[]
  send_email?: { name: string }[]
}

export async function printDeliverySetup(options: { remote: boolean; envFile?: string }): Promise<void> {
  // wrangler.toml read as TOML (smol-toml): loading wrangler's 15 MB bundle to read it cost ≈ 2.6 s
  // of CPU per run, and the raw config of a file without environments is the file itself.
  const config = readWranglerConfig('wrangler.toml') as RawConfig
  const env: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(config.vars ?? {})) env[name] = String(value)
  const declared = new Set([...Object.keys(config.vars ?? {}), ...(config.secrets?.required ?? [])])
  let source: string
  if (options.remote) {
    // The version that serves (after a rollback, not the latest upload), with its own vars and
    // the names of its own secrets: what `wrangler deployments status` and `versions view` report.
    let serving: Awaited<ReturnType<typeof servingNow>>
    let version: Awaited<ReturnType<typeof viewVersion>>
    try {
      serving = await servingNow('wrangler')
      if (serving.state === 'none') {
        console.error(`Nothing is deployed: ${serving.reason}.`)
        process.exit(2)
      }
      version = await viewVersion(serving.main)
    } catch (error) {
      console.error(
        `wrangler could not read the deployed Worker (signed in? \`npx wrangler login\`):\n${(error as Error).message}`,
      )
      process.exit(2)
    }
    for (const name of Object.keys(env)) delete env[name]
    for (const binding of version.resources.bindings) {
      // Only whether a secret is set matters here; the values never leave Cloudflare.
      if (binding.type === 'secret_text') env[binding.name] = 'set'
      else if (binding.type === 'plain_text' || binding.type === 'json') env[binding.name] = binding.text ?? ''
      else env[binding.name] = { binding: binding.type }
    }
    source = `the version serving now, ${serving.main}${serving.deployment.versions.length > 1 ? ` (of ${describeServing(serving)})` : ''}: its vars and its secrets' names`
  } else {
    const file = options.envFile ?? (existsSync('.dev.vars') ? '.dev.vars' : undefined)
    // The webhooks' secrets too: `npm start` declares them when the file sets them (scripts/start.mjs).
    if (file)
      for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8'))))
        if (declared.has(name) || WEBHOOK_SECRETS.includes(name)) env[name] = value
    source = `this machine: wrangler.toml${file ? ` and ${file}` : ' (no .dev.vars)'}`
    // Bindings declared in wrangler.toml are bound locally.
    const bound = { binding: true }
    if (config.d1_databases?.some((db) => db.binding === 'ENQUIRIES')) env.ENQUIRIES = bound
    for (const name of ['CONTACT_RATE_LIMITER', 'CONTACT_NETWORK_RATE_LIMITER'])
      if (config.ratelimits?.some((limiter) => limiter.name === name)) env[name] = bound
    if (config.send_email?.some((binding) => binding.name === 'CONTACT_EMAIL')) env.CONTACT_EMAIL = bound
  }

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
  Enquiry database              ${report.ledger ? 'bound' : 'not bound'}
  Rate limiters                 ${report.rateLimiter ? 'bound' : 'not bound: the enquiry database counts posts instead'}
  Turnstile (spam check)        ${turnstile}`)
  const { noticesSetup, noticesSetupLines } = await import('../app/notices/setup.ts')
  const { site } = await import('../app/site.ts')
  for (const line of noticesSetupLines(noticesSetup(env as Parameters<typeof noticesSetup>[0]), site.email))
    console.log(`  ${line.label.padEnd(30)}${line.value}`)
  const { webhookSetup, webhookSetupLines } = await import('../app/contact/webhooks.ts')
  // Remotely a secret is only "set": its value, and so the hosts, stay in Cloudflare.
  const hooks = options.remote
    ? [
        {
          label: 'Webhooks',
          value: env.WEBHOOK_ENDPOINTS ? 'WEBHOOK_ENDPOINTS is set (its hosts stay in Cloudflare)' : 'none',
        },
      ]
    : webhookSetupLines(webhookSetup(env as Parameters<typeof webhookSetup>[0]))
  for (const line of hooks) console.log(`  ${line.label.padEnd(30)}${line.value}`)
}
