// Staging: the tested build of a push to main as the Preview `staging` of a Worker of its own
// (`<name>-staging`, apart from pull requests' Previews, behind an Access application and service
// token of its own), with a database of its own, delivering the way production is configured (`[vars]
// CONTACT_DELIVERY` in wrangler.toml) with staging's own key or sender (docs/operations/staging.md). Run by .github/workflows/deploy.yml before production, from a checkout of the commit
// that was built.
//
//   node scripts/ci/staging.ts --build <dir> --message <text>
//
//  1. applies the commit's migrations/ to staging's database (`<production database>-staging`,
//     its id in STAGING_DATABASE_ID), refused while that id is unset or is production's or the
//     previews'. Pull requests' migrations never run there: only main's, in main's order, as on
//     production;
//  2. `wrangler preview --name staging --var CONTACT_DELIVERY:<production's> …` of the build with
//     staging's database bound: for `form-service`, production's endpoint and
//     STAGING_CONTACT_FORM_ACCESS_KEY in a secrets file only this process can read, removed
//     afterwards; for `email`, production's send_email binding and STAGING_CONTACT_EMAIL_FROM as
//     the sender; for `none`, nothing more;
//  3. reads the URL and the new deployment's own URL from wrangler's output file, smoke-tests the
//     deployment at its own URL, which serves exactly it (through Access when
//     CF_ACCESS_CLIENT_ID/SECRET are set);
//  4. sends ONE marked enquiry through that URL (scripts/prove-delivery.ts) and checks, in staging's
//     database, that staging delivered it (with `none`: that staging stored it). Crons do not run
//     on Previews, so an enquiry staging could not deliver at once stays pending: that fails the
//     job, naming the cause in the log and the run's summary.
// Needs CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID, STAGING_DATABASE_ID, and the delivery's own
// STAGING_CONTACT_FORM_ACCESS_KEY or STAGING_CONTACT_EMAIL_FROM.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { applyMigrations, writePreviewMigrationConfig } from '../d1-migrate-previews.ts'
import { formServicePlanProblems, isUnsetId, type RawConfig, readWranglerConfig } from '../ops-config.ts'
import { proveDelivery } from '../prove-delivery.ts'
import { accessHeaders, d1Query, reportError, setOutput, summary } from './lib.ts'
import { deployPreview, smokePreview } from './preview.ts'
import { stagingWorkerName, writeDeployConfig } from './preview-build.ts'

export const STAGING = 'staging'

/** Staging's database: production's name with `-staging` (docs/operations/first-deploy.md, step 2). */
export function stagingDatabase(config: RawConfig, id: string | undefined): RawConfig {
  const production = (config.d1_databases as RawConfig[])[0] as RawConfig
  return {
    binding: production.binding,
    database_name: `${production.database_name}-staging`,
    database_id: id ?? '',
    migrations_dir: production.migrations_dir ?? 'migrations',
  }
}

/** Why staging's database must not be used: unset, or production's or the previews'. */
export function stagingDatabaseRefusals(config: RawConfig, id: string | undefined): string[] {
  if (!id || isUnsetId(id)) {
    return [
      `STAGING_DATABASE_ID is not set: create staging's database (npx wrangler d1 create ${stagingDatabase(config, id).database_name}) and store its id as STAGING_DATABASE_ID in the staging and preview environments`,
    ]
  }
  const others = [...(config.d1_databases ?? []), ...(config.previews?.d1_databases ?? [])] as RawConfig[]
  const same = others.find((d) => d.database_id === id)
  return same ? [`STAGING_DATABASE_ID ${id} is ${same.database_name}'s: staging must have its own database`] : []
}

/** Stops the job: the reason in its log and in the run's summary (a failed staging holds production back). */
function fail(message: string): never {
  reportError(message)
  summary(`Staging failed; production is not deployed.\n\n${message}`)
  process.exit(1)
}

/** How staging delivers: production's CONTACT_DELIVERY, with staging's own key or sender. */
export interface StagingDelivery {
  delivery: string
  /** `--var` arguments for `wrangler preview`. */
  vars: string[]
  /** Lines of the secrets file (none: no file). */
  secrets: string[]
  /** Production's send_email bindings, bound for the Previews too (the `email` delivery). */
  sendEmail?: RawConfig[]
  /** Why staging cannot deliver that way. */
  refusal?: string
}

export function stagingDelivery(
  config: RawConfig,
  env: Record<string, string | undefined> = process.env,
): StagingDelivery {
  const vars = (config.vars ?? {}) as Record<string, unknown>
  const delivery = String(vars.CONTACT_DELIVERY ?? '').trim() || 'form-service'
  const result: StagingDelivery = { delivery, vars: [`CONTACT_DELIVERY:${delivery}`], secrets: [] }
  if (delivery === 'form-service') {
    const endpoint = String(vars.CONTACT_FORM_ENDPOINT ?? '').trim()
    if (endpoint) result.vars.push(`CONTACT_FORM_ENDPOINT:${endpoint}`)
    const key = env.STAGING_CONTACT_FORM_ACCESS_KEY?.trim()
    if (!key) {
      result.refusal =
        'STAGING_CONTACT_FORM_ACCESS_KEY is not set: production delivers through the form service, so staging needs a key of its own for it (the staging environment’s secret: docs/operations/staging.md)'
    } else result.secrets.push(`CONTACT_FORM_ACCESS_KEY=${key}`)
  } else if (delivery === 'email') {
    const from = env.STAGING_CONTACT_EMAIL_FROM?.trim()
    if (!from) {
      result.refusal =
        'STAGING_CONTACT_EMAIL_FROM is not set: production delivers by e-mail, so staging needs a sender of its own on a domain with Email Routing (the staging environment’s secret: docs/operations/staging.md)'
    } else result.vars.push(`CONTACT_EMAIL_FROM:${from}`)
    result.sendEmail = (config.send_email ?? []) as RawConfig[]
  } else if (delivery !== 'none') {
    result.refusal = `CONTACT_DELIVERY "${delivery}" in wrangler.toml is no delivery this site has (form-service, email, none)`
  }
  return result
}

interface Delivery {
  status: string
  attempts: number
  lastCause: string | null
}

/**
 * The marked enquiry's delivery state in staging's database, or null while it is not there: read
 * through the API's query route, as `wrangler d1 execute --remote --command` would read it.
 */
async function deliveryOf(databaseId: string, checkId: string): Promise<Delivery | null> {
  // The check id is 8 hex characters (prove-delivery's), so it is safe inside the LIKE pattern.
  if (!/^[0-9a-f]{8}$/.test(checkId)) throw new Error(`unexpected check id ${checkId}`)
  const rows = await d1Query<Delivery>(
    databaseId,
    `SELECT status, attempts, last_cause AS lastCause FROM enquiries WHERE message LIKE '%Test enquiry ${checkId},%'`,
  )
  return rows[0] ?? null
}

async function main() {
  const { values } = parseArgs({ options: { build: { type: 'string' }, message: { type: 'string' } } })
  if (!values.build) fail('give the tested build with --build <dir>')
  const config = readWranglerConfig('wrangler.toml')
  const how = stagingDelivery(config)
  if (how.refusal) fail(how.refusal)
  const id = process.env.STAGING_DATABASE_ID?.trim()
  const refusals = stagingDatabaseRefusals(config, id)
  if (refusals.length > 0) fail(`Refusing to deploy staging:\n  ${refusals.join('\n  ')}`)
  const database = stagingDatabase(config, id)
  const access = accessHeaders()

  const file = writePreviewMigrationConfig(config, undefined, [database], 'staging-d1.json')
  try {
    await applyMigrations(file, [database])
  } catch (error) {
    fail((error as Error).message)
  }

  const dir = mkdtempSync(join(tmpdir(), 'staging-'))
  const secrets = join(dir, 'staging.env')
  let deployed: { url: string; deployment: string; deploymentUrl: string }
  try {
    if (how.secrets.length > 0) writeFileSync(secrets, `${how.secrets.join('\n')}\n`, { mode: 0o600 })
    deployed = await deployPreview({
      config: writeDeployConfig(values.build, {
        database: { database_name: database.database_name, database_id: database.database_id },
        sendEmail: how.sendEmail,
        worker: stagingWorkerName(config),
      }),
      name: STAGING,
      message: values.message ?? 'main',
      vars: how.vars,
      secretsFile: how.secrets.length > 0 ? secrets : undefined,
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const { url } = deployed
  console.log(`Staging: ${url}`)
  setOutput('url', url)
  await smokePreview(deployed.deploymentUrl, deployed.deployment)

  // Through the deployment's own URL: the stable one may still answer with the deployment before.
  const proof = await proveDelivery(new URL(deployed.deploymentUrl).origin, undefined, access)
  console.log(`Sent one marked enquiry (check id ${proof.checkId}): ${proof.status} ${proof.body}`)
  if (!proof.ok) fail(`Staging did not accept the marked enquiry (${proof.status}): ${proof.body}`)

  let stored: Delivery | null = null
  const deadline = Date.now() + 60_000
  for (;;) {
    stored = await deliveryOf(database.database_id, proof.checkId)
    // With `none`, stored is all there is to prove.
    if ((stored && how.delivery === 'none') || stored?.status === 'delivered' || Date.now() > deadline) break
    if (stored && stored.status !== 'pending') break
    // An attempt failed: no cron retries it on a Preview, so waiting changes nothing.
    if (stored && stored.attempts > 0 && stored.lastCause) break
    await new Promise((resolve) => setTimeout(resolve, 3_000))
  }
  if (!stored) fail('Staging answered ok but the marked enquiry is not in staging’s database.')
  if (how.delivery === 'none') {
    console.log(`Staging stored the marked enquiry (check id ${proof.checkId}); CONTACT_DELIVERY is "none".`)
    summary(`Staging: ${url} — stored marked enquiry \`${proof.checkId}\` (CONTACT_DELIVERY "none": nothing is sent)`)
    return
  }
  if (stored.status !== 'delivered') {
    const hint =
      how.delivery === 'form-service' && stored.lastCause === 'upstream_refused'
        ? formServicePlanProblems({ vars: { ...config.vars, CONTACT_FORM_SERVER_SIDE: '' } })
            .map((p) => ` If the form service refuses the Worker's server-side posts: ${p}.`)
            .join('')
        : ''
    fail(
      `Staging stored the marked enquiry but did not deliver it through ${how.delivery}: ${stored.status} after ${stored.attempts} attempt(s), last cause ${stored.lastCause ?? 'none'}. The delivery path or staging's key or sender is broken; production is not deployed.${hint}`,
    )
  }
  console.log(`Staging delivered the marked enquiry (check id ${proof.checkId}) through ${how.delivery}.`)
  summary(`Staging: ${url} — delivered marked enquiry \`${proof.checkId}\` through ${how.delivery}`)
}

if (import.meta.main) await main()
