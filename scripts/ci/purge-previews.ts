// Purges the previews' database and staging's of enquiries past the previews' retention
// (`[previews.vars] ENQUIRY_RETENTION_DAYS`, 30 days), as production's Cron Trigger does for
// production. Cron Triggers never run on a Preview (https://developers.cloudflare.com/workers/previews/limitations/),
// so .github/workflows/purge-previews.yml runs this every day:
//
//   node scripts/ci/purge-previews.ts [--now <ISO time>]
//
// Refused while the previews' database is production's or has no id, or staging's
// (STAGING_DATABASE_ID) is unset or another's. Each enquiry's delivery history goes with it (the
// foreign key's ON DELETE CASCADE, as in the Worker's own purge).
// Needs CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID and STAGING_DATABASE_ID.
import { parseArgs } from 'node:util'
import '../app-modules.ts'
import { previewsDatabaseRefusals, writePreviewMigrationConfig } from '../d1-migrate-previews.ts'
import { type RawConfig, readWranglerConfig } from '../ops-config.ts'
import { fail, failure, jsonStdout, summary, wrangler } from './lib.ts'
import { stagingDatabase, stagingDatabaseRefusals } from './staging.ts'

async function main() {
  const { values } = parseArgs({ options: { now: { type: 'string' } } })
  const now = values.now ? new Date(values.now) : new Date()
  if (Number.isNaN(now.getTime())) fail(`--now is not a time: ${values.now}`)
  const config = readWranglerConfig('wrangler.toml')
  const stagingId = process.env.STAGING_DATABASE_ID?.trim()
  const refusals = [...previewsDatabaseRefusals(config), ...stagingDatabaseRefusals(config, stagingId)]
  if (refusals.length > 0) fail(`Refusing to purge the previews' and staging's databases:\n  ${refusals.join('\n  ')}`)
  const { retentionDays } = await import('../../app/ledger/retention.ts')
  const days = retentionDays(config.previews?.vars?.ENQUIRY_RETENTION_DAYS)
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString()
  // One config lists both; binding names must differ there (they name nothing else).
  const databases = [
    ...(config.previews.d1_databases as RawConfig[]),
    { ...stagingDatabase(config, stagingId), binding: 'STAGING_ENQUIRIES' },
  ]
  const file = writePreviewMigrationConfig(config, undefined, databases, 'purge-d1.json')
  for (const db of databases) {
    const run = await wrangler(
      [
        'd1',
        'execute',
        db.database_name,
        '--remote',
        '--config',
        file,
        '--json',
        '--command',
        `DELETE FROM enquiries WHERE received_at < '${cutoff}' RETURNING id`,
      ],
      { quiet: true },
    )
    if (run.status !== 0) fail(`wrangler d1 execute on ${db.database_name} failed: ${failure(run).message}`)
    const [batch] = jsonStdout<{ results: { id: string }[] }[]>(run, 'wrangler d1 execute --json')
    const count = batch?.results.length ?? 0
    const said = `${db.database_name}: purged ${count} enquir${count === 1 ? 'y' : 'ies'} received before ${cutoff} (${days} days).`
    console.log(said)
    summary(said)
  }
}

if (import.meta.main) await main()
