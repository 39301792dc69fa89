// Staging: the tested build of a push to main as the named Worker Preview `staging`, delivering
// for real with staging's own key (docs/operations.md, "Staging"). Run by .github/workflows/deploy.yml
// before production, from a checkout of the commit that was built.
//
//   node scripts/ci/staging.ts --build <dir> --message <text>
//
//  1. applies migrations/ to the previews' database (refused while it is production's);
//  2. `wrangler preview --name staging --var CONTACT_DELIVERY:form-service --secrets-file …` with
//     STAGING_CONTACT_FORM_ACCESS_KEY in a file only this process can read, removed afterwards;
//  3. reads the URL from wrangler's output file, smoke-tests it (through Access when
//     CF_ACCESS_CLIENT_ID/SECRET are set);
//  4. sends ONE marked enquiry through it (scripts/prove-delivery.ts) and checks, in the previews'
//     database, that staging delivered it. Crons do not run on Previews, so an enquiry staging
//     could not deliver at once stays pending: that fails the job, naming the cause.
// Needs CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID and STAGING_CONTACT_FORM_ACCESS_KEY.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { migratePreviews, writePreviewMigrationConfig } from '../d1-migrate-previews.ts'
import { type RawConfig, readWranglerConfig } from '../ops-config.ts'
import { proveDelivery } from '../prove-delivery.ts'
import { accessHeaders, fail, failure, jsonStdout, setOutput, summary, wrangler } from './lib.ts'
import { deployPreview, smokePreview } from './preview.ts'

export const STAGING = 'staging'

interface Delivery {
  status: string
  attempts: number
  lastCause: string | null
}

/** The marked enquiry's delivery state in the previews' database, or null while it is not there. */
async function deliveryOf(checkId: string): Promise<Delivery | null> {
  const config = readWranglerConfig('wrangler.toml')
  const file = writePreviewMigrationConfig(config)
  const db = (config.previews.d1_databases as RawConfig[])[0]?.database_name as string
  // The check id is 8 hex characters (prove-delivery's), so it is safe inside the LIKE pattern.
  if (!/^[0-9a-f]{8}$/.test(checkId)) throw new Error(`unexpected check id ${checkId}`)
  const run = await wrangler(
    [
      'd1',
      'execute',
      db,
      '--remote',
      '--config',
      file,
      '--json',
      '--command',
      `SELECT status, attempts, last_cause AS lastCause FROM enquiries WHERE message LIKE '%Test enquiry ${checkId},%'`,
    ],
    { quiet: true },
  )
  if (run.status !== 0) throw new Error(`wrangler d1 execute failed: ${failure(run).message}`)
  const [batch] = jsonStdout<{ results: Delivery[] }[]>(run, 'wrangler d1 execute --json')
  return batch?.results[0] ?? null
}

async function main() {
  const { values } = parseArgs({ options: { build: { type: 'string' }, message: { type: 'string' } } })
  if (!values.build) fail('give the tested build with --build <dir>')
  const key = process.env.STAGING_CONTACT_FORM_ACCESS_KEY?.trim()
  if (!key)
    fail('STAGING_CONTACT_FORM_ACCESS_KEY is not set (the staging environment’s secret: docs/operations.md, "Staging")')
  const access = accessHeaders()

  try {
    await migratePreviews()
  } catch (error) {
    fail((error as Error).message)
  }

  const dir = mkdtempSync(join(tmpdir(), 'staging-'))
  const secrets = join(dir, 'staging.env')
  let url: string
  try {
    writeFileSync(secrets, `CONTACT_FORM_ACCESS_KEY=${key}\n`, { mode: 0o600 })
    url = await deployPreview({
      config: join(values.build, 'dist/server/wrangler.json'),
      name: STAGING,
      message: values.message ?? 'main',
      vars: ['CONTACT_DELIVERY:form-service'],
      secretsFile: secrets,
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`Staging: ${url}`)
  setOutput('url', url)
  await smokePreview(url)

  const proof = await proveDelivery(new URL(url).origin, undefined, access)
  console.log(`Sent one marked enquiry (check id ${proof.checkId}): ${proof.status} ${proof.body}`)
  if (!proof.ok) fail(`Staging did not accept the marked enquiry (${proof.status}): ${proof.body}`)

  let delivery: Delivery | null = null
  const deadline = Date.now() + 60_000
  for (;;) {
    delivery = await deliveryOf(proof.checkId)
    if (delivery?.status === 'delivered' || Date.now() > deadline) break
    if (delivery && delivery.status !== 'pending') break
    await new Promise((resolve) => setTimeout(resolve, 3_000))
  }
  if (delivery?.status !== 'delivered') {
    fail(
      delivery
        ? `Staging stored the marked enquiry but did not deliver it: ${delivery.status} after ${delivery.attempts} attempt(s), last cause ${delivery.lastCause ?? 'none'}. The delivery path or staging's key is broken; production is not deployed.`
        : 'Staging answered ok but the marked enquiry is not in the previews’ database.',
    )
  }
  console.log(`Staging delivered the marked enquiry (check id ${proof.checkId}).`)
  summary(`Staging: ${url} — delivered marked enquiry \`${proof.checkId}\``)
}

if (import.meta.main) await main()
