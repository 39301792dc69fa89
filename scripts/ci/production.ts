// The production deploy of a tested build (docs/operations/github-setup.md and rollback.md),
// as .github/workflows/deploy.yml runs it, from a checkout of the commit that was built:
//
//   node scripts/ci/production.ts --build <dir> --message <text>
//
//  1. the go-live check (no sample values, no unset ids): refused before anything is uploaded;
//  2. records the version serving now (the Worker's latest deployment, from Cloudflare's API:
//     versions.ts). If that cannot be read, it stops here: a deploy without a known rollback
//     target is not made. "Nothing serves yet" is accepted only when Cloudflare says the Worker
//     does not exist or has no deployment;
//  3. records the database's D1 Time Travel bookmark (what `wrangler d1 time-travel info ENQUIRIES
//     --json` reads) and writes it, with the restore command, to the summary: a rollback restores code,
//     never data, and this job never restores data itself (docs/operations/rollback.md). If it
//     cannot be read, it stops here. Then `wrangler d1 migrations apply ENQUIRIES --remote`, unless
//     the database already records every migration (scripts/ci/migrations.ts, nothingToApply);
//  4. `wrangler deploy` of the build, the new version's id read from wrangler's output file;
//  5. the smoke test on `url` in app/site.ts (through Access when CF_ACCESS_CLIENT_ID/SECRET are set):
//     it waits until /api/health names the new version, then judges it;
//  6. if it fails: `wrangler rollback <recorded version>`, then checks that the recorded version
//     serves 100% again and passes the smoke test, and says so. The job fails either way. It rolls
//     back only while production still serves this job's deployment: if someone rolled back or
//     changed a secret meanwhile, it says who and leaves production as they left it.
// After any step that fails, what serves is read again and compared with what served before the
// step: a step can fail after the new version went live (`wrangler deploy` deploys the version,
// then sets the Cron Triggers and custom domains, and fails if any of those calls is refused). A version that
// went live is smoke-tested, and rolled back if it fails. The run's summary always names the
// version serving when the job ends.
// Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { site } from '../../app/site.ts'
import { goLiveFindings } from '../go-live.ts'
import { type RawConfig, readWranglerConfig } from '../ops-config.ts'
import { smoke } from '../smoke.ts'
import {
  accessHeaders,
  cloudflareApi,
  fail,
  failure,
  type OutputEntry,
  outputEntry,
  reportError,
  summary,
  wrangler,
} from './lib.ts'
import { nothingToApply } from './migrations.ts'
import {
  builtFrom,
  describeDeployment,
  describeServing,
  listVersions,
  type Serving,
  sameServing,
  servingNow,
} from './versions.ts'

interface DeployEntry extends OutputEntry {
  version_id: string
  targets?: string[]
}

/** The binding the production database has in wrangler.toml (its migrations' target). */
const DATABASE = 'ENQUIRIES'

/** The production database's entry in wrangler.toml. */
const productionDatabase = (): RawConfig | undefined =>
  ((readWranglerConfig('wrangler.toml').d1_databases ?? []) as RawConfig[]).find((d) => d.binding === DATABASE)

/** The command that brings the database back to `bookmark`, as docs/operations/rollback.md gives it. */
export const restoreCommand = (bookmark: string) =>
  `npx wrangler d1 time-travel restore ${DATABASE} --bookmark=${bookmark}`

/**
 * The database's D1 Time Travel bookmark now (https://developers.cloudflare.com/d1/reference/time-travel/),
 * or why it could not be read: the route `wrangler d1 time-travel info ENQUIRIES --json` calls
 * (getBookmarkIdFromTimestamp in wrangler 4.151), for `entry`, the database wrangler.toml binds,
 * read from the API: a request where wrangler would cost its start.
 */
async function bookmarkNow(entry: RawConfig | undefined): Promise<{ bookmark: string } | { error: string }> {
  const id = typeof entry?.database_id === 'string' ? entry.database_id : ''
  if (!id) return { error: `wrangler.toml binds no ${DATABASE} database with an id` }
  try {
    const { bookmark } = await cloudflareApi<{ bookmark?: unknown }>(
      `/d1/database/${encodeURIComponent(id)}/time_travel/bookmark`,
    )
    if (typeof bookmark === 'string' && bookmark) return { bookmark }
    return { error: 'the answer held no bookmark' }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/** Where a version's code came from, for the summary: `(built from <commit>)`, or nothing if unknown. */
async function commitNote(version: string): Promise<string> {
  try {
    const found = builtFrom(await listVersions(), version)
    if (!found) return ''
    return found.from === version
      ? ` (built from commit ${found.commit})`
      : ` (a secret change of ${found.from}, built from commit ${found.commit})`
  } catch {
    return ''
  }
}

/**
 * Rolls production back to `target` (or, without one, to the version `wrangler rollback` picks:
 * the last one deployed at 100% before the current deployment) and proves it: that version alone
 * serves, at 100%, and passes the smoke test, once it answers. `from` is the version serving before.
 */
export async function rollBackTo(
  target: string | undefined,
  message: string,
  from?: string,
): Promise<{ ok: boolean; version?: string; report: string }> {
  // `--yes` is not passed: wrangler 4.151 declares it but never reads it. Run without a terminal
  // (CI, or stdin closed as here), wrangler answers its own prompts with their defaults: the
  // message given, "yes" to deploying the version, and "yes" to the secrets that changed since.
  const run = await wrangler([
    'rollback',
    ...(target ? [target] : []),
    '--message',
    message,
    '--config',
    'wrangler.toml',
  ])
  if (run.status !== 0) {
    return { ok: false, report: `wrangler rollback ${target ?? ''} failed: ${failure(run).message}` }
  }
  let after: Serving
  try {
    after = await servingNow('api')
  } catch (error) {
    return {
      ok: false,
      report: `after the rollback, which version serves could not be read: ${(error as Error).message}`,
    }
  }
  const only =
    after.state === 'serving' && after.deployment.versions.length === 1 ? after.deployment.versions[0] : undefined
  const expected = target ? only?.version_id === target : only !== undefined && only.version_id !== from
  if (!(only && expected && only.percentage === 100)) {
    return {
      ok: false,
      report: `after the rollback production serves ${describeServing(after)}, not ${target ?? 'an earlier version'} alone at 100%`,
    }
  }
  const { origin, problems } = await smoke(site.url, { headers: accessHeaders(), version: only.version_id })
  if (problems.length > 0) {
    return {
      ok: false,
      version: only.version_id,
      report: `${only.version_id} serves 100% again, but the smoke test fails on ${origin}: ${problems.join('; ')}`,
    }
  }
  return {
    ok: true,
    version: only.version_id,
    report: `${only.version_id} serves 100% again and passes the smoke test on ${origin}`,
  }
}

/**
 * Whether production still serves what this job put there (`ours`: its deployment's id, or its
 * version alone at 100%), read just before an automatic rollback. Someone may have rolled back or
 * rotated a key while the job waited on its smoke test: rolling back to the version recorded at
 * the start would then undo their change. Returns why not, naming who changed it.
 */
async function changedUnderUs(ours: { deployment?: string; version: string }): Promise<string | undefined> {
  let now: Serving
  try {
    now = await servingNow('api')
  } catch (error) {
    return `which deployment serves could not be read before rolling back (${(error as Error).message})`
  }
  if (now.state === 'serving') {
    const only = now.deployment.versions.length === 1 ? now.deployment.versions[0] : undefined
    if (ours.deployment ? now.deployment.id === ours.deployment : only?.version_id === ours.version) return undefined
  }
  return `production no longer serves this job's deployment: it serves ${describeDeployment(now)}`
}

/** Ends the job without rolling back: someone changed production after this job's deploy. */
function notRollingBack(version: string, why: string): never {
  const said = `Not rolling back: ${why}. Version ${version}, deployed by this job, failed its smoke test, but someone changed production since; rolling back to the version recorded when this job started would undo their change. Check what serves (npx wrangler deployments list) with whoever made that deployment (docs/operations/rollback.md).`
  summary(said)
  fail(said)
}

/**
 * After a step failed: what serves now, against what served before it. Unchanged: says so.
 * Changed (the failed step put a version live): smoke-tests that version and rolls back to the one
 * before when it fails. Ends the job, its summary naming the version that serves.
 */
async function afterFailure(step: string, why: string, before: Serving): Promise<never> {
  reportError(`${step} failed: ${why}`)
  let now: Serving
  try {
    now = await servingNow('api')
  } catch (error) {
    const said = `${step} failed, and which version serves production now could not be read (${(error as Error).message}). Before the step, ${describeServing(before)} served. Check by hand: npx wrangler deployments status (docs/operations/rollback.md).`
    summary(said)
    fail(said)
  }
  if (sameServing(before, now)) {
    const said = `${step} failed; production still serves ${describeServing(now)}, as before the step.`
    summary(said)
    fail(said)
  }
  if (now.state === 'none') {
    const said = `${step} failed, and production now serves nothing (before: ${describeServing(before)}).`
    summary(said)
    fail(said)
  }
  console.log(`${step} failed after a new deployment went live: production serves ${describeServing(now)}.`)
  const { origin, problems } = await smoke(site.url, { headers: accessHeaders(), version: now.main })
  if (problems.length === 0) {
    const said = `${step} failed after version ${now.main} went live. It passes the smoke test on ${origin} and stays: production serves ${describeServing(now)}. Fix what the step needed and re-run this job.`
    summary(said)
    fail(said)
  }
  reportError(
    `Version ${now.main}, live after ${step} failed, fails the smoke test on ${origin}:\n${problems.join('\n')}`,
  )
  if (before.state === 'none') {
    const said = `Nothing served before this deploy (${before.reason}), so there is nothing to roll back to: version ${now.main} is serving and failing. Fix it and deploy again.`
    summary(said)
    fail(said)
  }
  const changed = await changedUnderUs({ deployment: now.deployment.id, version: now.main })
  if (changed) notRollingBack(now.main, changed)
  const back = await rollBackTo(
    before.main,
    `Automatic rollback: ${step} failed, ${now.main} failed its smoke test`,
    now.main,
  )
  if (!back.ok) {
    const said = `The automatic rollback to ${before.main} did NOT complete: ${back.report}. Roll back by hand: npx wrangler rollback ${before.main} (docs/operations/rollback.md).`
    summary(said)
    fail(said)
  }
  const said = `Production was rolled back: ${back.report}${await commitNote(before.main)}. ${step} had failed after version ${now.main} went live, and it failed its smoke test.`
  summary(said)
  fail(said)
}

/** The bookmark recorded before migrating, once it is. */
let bookmark: string | undefined

/** After a rollback whose version fails its smoke test too: the code is back, so the data is the suspect. */
function dataSuspect(): string {
  return bookmark
    ? ` The version rolled back to fails too, so the database (which no rollback touches) is the likely cause: check it, and restore it if the migrations damaged it: ${restoreCommand(bookmark)} (docs/operations/rollback.md).`
    : ''
}

async function main() {
  const { values } = parseArgs({
    options: { build: { type: 'string' }, message: { type: 'string' }, 'message-file': { type: 'string' } },
  })
  if (!values.build) fail('give the tested build with --build <dir>')
  const config = join(values.build, 'dist/server/wrangler.json')
  if (!existsSync(config)) fail(`${config} is missing: is --build the tested build?`)
  const messageFile = values['message-file']
  const message = (values.message ?? (messageFile ? readFileSync(messageFile, 'utf8') : 'Deploy')).trim().slice(0, 100)

  // 1. Go-live.
  const findings = goLiveFindings('.')
  if (findings.length > 0) {
    fail(
      `Go-live check: refusing to deploy to production. Still to replace:\n  ${findings.map((f) => `${f.where}  ${f.what}`).join('\n  ')}`,
    )
  }

  // 2. The rollback target.
  let before: Serving
  try {
    before = await servingNow('api')
  } catch (error) {
    fail(
      `Cannot tell which version serves production now, so there would be nothing to roll back to if this deploy failed: refusing to deploy.\n${(error as Error).message}`,
    )
  }
  console.log(`Serving now: ${describeServing(before)}`)

  // 3. The way back for data, then the migrations (backward compatible: the version serving now
  // keeps working on the new schema; scripts/ci/migrations.ts refuses drops and renames).
  const database = productionDatabase()
  const mark = await bookmarkNow(database)
  if ('error' in mark) {
    fail(
      `Cannot read the ${DATABASE} database's Time Travel bookmark, so there would be no recorded way back for its data if a migration went wrong: refusing to deploy.\n${mark.error}`,
    )
  }
  bookmark = mark.bookmark
  const way = `Before migrating, the ${DATABASE} database's Time Travel bookmark was \`${bookmark}\`. A rollback restores code only: if this deploy's migrations damaged the data, restore it with \`${restoreCommand(bookmark)}\` (docs/operations/rollback.md; it undoes every write since, enquiries too). This job never restores data itself.`
  console.log(way)
  summary(way)
  const dir = database?.migrations_dir ?? 'migrations'
  if (database && (await nothingToApply(database, dir))) {
    console.log(`No migrations to apply: the ${DATABASE} database records every file of ${dir}/.`)
  } else {
    const migrate = await wrangler(['d1', 'migrations', 'apply', DATABASE, '--remote', '--config', 'wrangler.toml'])
    if (migrate.status !== 0) await afterFailure('wrangler d1 migrations apply', failure(migrate).message, before)
  }

  // 4. Deploy.
  const deploy = await wrangler(['deploy', '--config', config, '--message', message])
  const deployed = outputEntry<DeployEntry>(deploy, 'deploy')
  if (deploy.status !== 0 || !deployed?.version_id)
    await afterFailure('wrangler deploy', failure(deploy).message, before)
  const version = deployed?.version_id as string
  console.log(`Deployed version ${version} (${(deployed?.targets ?? []).join(', ') || 'no targets'})`)

  // 5. Smoke test, once the new version answers.
  const { origin, problems } = await smoke(site.url, { headers: accessHeaders(), version })
  if (problems.length === 0) {
    console.log(`smoke: ${origin} serves the home page and /api/health is ok, answered by version ${version}`)
    summary(`Production serves version \`${version}\` (${message}); the smoke test passes on ${origin}.`)
    return
  }
  reportError(`The smoke test failed for version ${version} on ${origin}:\n${problems.join('\n')}`)

  // 6. Roll back.
  if (before.state === 'none') {
    const said = `Nothing served before this deploy (${before.reason}), so there is nothing to roll back to: version ${version} is serving and failing. Fix it and deploy again.`
    summary(said)
    fail(said)
  }
  const changed = await changedUnderUs({ version })
  if (changed) notRollingBack(version, changed)
  const back = await rollBackTo(before.main, `Automatic rollback: smoke test failed for ${version}`, version)
  if (!back.ok) {
    const said =
      back.version === before.main
        ? `Production's code was rolled back, but ${back.report}.${dataSuspect()}`
        : `The automatic rollback to ${before.main} did NOT complete: ${back.report}. Roll back by hand: npx wrangler rollback ${before.main} (docs/operations/rollback.md).`
    summary(said)
    fail(said)
  }
  const said = `Production was rolled back: ${back.report}${await commitNote(before.main)}. Version ${version} failed its smoke test and is not serving; it is still the latest upload, so change secrets as docs/operations/key-rotation.md, says after a rollback.`
  summary(said)
  fail(said)
}

if (import.meta.main) await main()
