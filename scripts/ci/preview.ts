// A pull request's Worker Preview, as .github/workflows/preview-deploy.yml and preview-delete.yml
// run it (docs/operations/previews.md). Run from a checkout of the default
// branch; the pull request's build is data in --build (scripts/ci/preview-build.ts). Previews live
// in the previews Worker (`<name>-previews`), never in production's.
//
//   node scripts/ci/preview.ts check  --build <dir>
//       The build's wrangler configuration is the default branch's, its migrations are SQL files
//       that leave the default branch's untouched, and the previews' database is not production's.
//       No token needed.
//   node scripts/ci/preview.ts deploy --build <dir> --pr <number> --message <text>
//       Checks again, applies the build's migrations to the previews' database, runs
//       `wrangler preview --name pr-<number>` for the previews Worker, reads the Preview's URL and
//       its new deployment's own URL from wrangler's output file, smoke-tests that deployment at
//       its own URL (through Access with CF_ACCESS_CLIENT_ID/SECRET when set), checks that a
//       request without the service token gets Access's login, and sets the step output `url`.
//       Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.
//   node scripts/ci/preview.ts delete --pr <number>
//       `wrangler preview delete --name pr-<number>`; a Preview that is already gone counts as deleted.
//   node scripts/ci/preview.ts sweep
//       Deletes the Preview of every closed pull request (.github/workflows/purge-previews.yml,
//       daily): a stacked pull request's Preview (its base another pull request's branch) is not
//       deleted when it closes, since Preview delete runs for pull requests into main only. Lists
//       the previews Worker's Previews with Cloudflare's Previews API (wrangler 4.151 has no
//       command for it: https://developers.cloudflare.com/workers/previews/api/) and asks GitHub
//       whether each pull request is closed. Needs CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID and
//       GITHUB_TOKEN (pull-requests: read).
//   node scripts/ci/preview.ts branch --name <name> [--delete]   (npm run preview:branch)
//       By hand, from a checkout after `npm run build`: the same as deploy (or delete), for a
//       Preview named after a branch. Its migrations pass the same check as CI's against the
//       default branch (`--base`, default origin/main, else main) first, and the names CI uses
//       (`staging`, `pr-<n>`) are refused: a Preview by hand must not stand in for either.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { migratePreviews } from '../d1-migrate-previews.ts'
import { type RawConfig, readWranglerConfig } from '../ops-config.ts'
import { accessLogin, smoke } from '../smoke.ts'
import {
  accessHeaders,
  cloudflareApiAll,
  fail,
  failure,
  type OutputEntry,
  outputEntry,
  reportNotice,
  setOutput,
  summary,
  wrangler,
} from './lib.ts'
import { migrationProblems, migrationsAt, migrationsIn } from './migrations.ts'
import { BUILD_CONFIG, previewBuildProblems, previewsWorkerName, writeDeployConfig } from './preview-build.ts'

/** wrangler's code for "this Preview does not exist" (PREVIEW_NOT_FOUND_ERR_CODE in its source). */
export const PREVIEW_NOT_FOUND = 10025

export interface PreviewEntry extends OutputEntry {
  preview_name: string
  preview_urls?: string[]
  deployment_id?: string
  deployment_urls?: string[]
}

export function previewName(pr: string | undefined): string {
  if (!pr || !/^[1-9]\d{0,8}$/.test(pr)) fail(`--pr must be a pull request number, not ${JSON.stringify(pr)}`)
  return `pr-${pr}`
}

/** The Preview's URL from wrangler's `preview` output entry: its stable URL, else this deployment's. */
export function previewUrl(entry: PreviewEntry | undefined): string | undefined {
  return entry?.preview_urls?.[0] ?? entry?.deployment_urls?.[0]
}

/**
 * `wrangler preview` with the checked build. Returns the Preview's URL, the new deployment's id and
 * that deployment's own URL (which serves exactly it), or stops the script explaining why there is none.
 */
export async function deployPreview(options: {
  config: string
  name: string
  message: string
  vars?: string[]
  secretsFile?: string
}): Promise<{ url: string; deployment: string; deploymentUrl: string }> {
  const args = ['preview', '--config', options.config, '--name', options.name, '--message', options.message]
  for (const v of options.vars ?? []) args.push('--var', v)
  if (options.secretsFile) args.push('--secrets-file', options.secretsFile)
  const run = await wrangler(args)
  if (run.status !== 0) fail(`wrangler preview --name ${options.name} failed: ${failure(run).message}`)
  const entry = outputEntry<PreviewEntry>(run, 'preview')
  const url = previewUrl(entry)
  const deploymentUrl = entry?.deployment_urls?.[0]
  if (!url || !entry?.deployment_id || !deploymentUrl) {
    fail(
      `wrangler preview --name ${options.name} reported no URL, deployment or deployment URL in its output file (the previews Worker needs Preview URLs on)`,
    )
  }
  return { url, deployment: entry.deployment_id, deploymentUrl }
}

/**
 * Smoke-tests a Preview deployment at its own URL, which serves exactly that deployment (the
 * Preview's stable URL serves the one before until the new one has reached every location, and
 * no document promises that /api/health names a Preview's deployment), through Access when a
 * service token is set; stops the script on failure.
 */
export async function smokePreview(deploymentUrl: string, deployment: string): Promise<void> {
  const { origin, problems } = await smoke(deploymentUrl, { headers: accessHeaders() })
  if (problems.length > 0) fail(`The smoke test failed on ${origin}:\n${problems.join('\n')}`)
  const open = await withoutToken(origin)
  if (open) fail(open)
  console.log(`smoke: ${origin} (deployment ${deployment}'s own URL) serves the home page and /api/health is ok`)
}

/**
 * Why a Preview is open to anyone: a request without the Access service token must get Access's
 * login (docs/operations/previews.md, "Keeping previews private"); anything else means no Access
 * application covers it. Undefined when Access answers.
 */
export async function withoutToken(origin: string): Promise<string | undefined> {
  let answer: Response
  try {
    answer = await fetch(`${origin}/api/health`, { redirect: 'manual', signal: AbortSignal.timeout(15_000) })
  } catch (error) {
    return `A request to ${origin} without the Access service token failed: ${(error as Error).message}`
  }
  await answer.body?.cancel()
  if (accessLogin(answer)) return undefined
  return `${origin} answered ${answer.status} to a request without the Access service token, not Access's login: no Access application covers it, so anyone can open it (docs/operations/previews.md, "Keeping previews private")`
}

/** `wrangler preview delete` of the previews Worker's Preview `name`; one already gone counts as deleted. */
async function deletePreview(name: string, config: string): Promise<void> {
  const run = await wrangler([
    'preview',
    'delete',
    '--config',
    config,
    '--worker-name',
    previewsWorkerName(readWranglerConfig(config)),
    '--name',
    name,
    '--skip-confirmation',
  ])
  if (run.status === 0) {
    console.log(`Preview ${name} deleted.`)
    return
  }
  const { code, message } = failure(run)
  if (code === PREVIEW_NOT_FOUND) {
    reportNotice(`Preview ${name} does not exist (never made, or already deleted): nothing to delete.`)
    return
  }
  fail(`wrangler preview delete --name ${name} failed: ${message}${code ? ` [code ${code}]` : ''}`)
}

/** The names of the Previews of a Worker, from Cloudflare's Previews API, every page (`result_info`). */
async function listPreviews(worker: string): Promise<string[]> {
  try {
    const previews = await cloudflareApiAll<{ name: string }[], { name: string }>(
      `/workers/workers/${worker}/previews`,
      (result) => result,
    )
    return previews.map((p) => p.name)
  } catch (error) {
    fail(`Listing the Previews of ${worker} failed: ${(error as Error).message}`)
  }
}

/** Whether a pull request is closed, from GitHub's REST API; undefined when GitHub does not know it. */
async function pullRequestClosed(number: string): Promise<boolean | undefined> {
  const api = process.env.GITHUB_API_URL || 'https://api.github.com'
  const repository = process.env.GITHUB_REPOSITORY
  const token = process.env.GITHUB_TOKEN
  if (!repository || !token) fail('GITHUB_REPOSITORY and GITHUB_TOKEN must be set')
  const answer = await fetch(`${api}/repos/${repository}/pulls/${number}`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json' },
  })
  if (answer.status === 404) return undefined
  if (!answer.ok) fail(`GitHub answered ${answer.status} for pull request #${number}`)
  return ((await answer.json()) as { state?: string }).state === 'closed'
}

/**
 * Checks a build (a pull request's, handed over as data; a checkout's own build by hand needs no
 * check), migrates the previews' database with its migrations, deploys and smoke-tests the Preview.
 */
/** Why a Preview by hand may not take `name`: CI's names for staging and the pull requests' Previews. */
export function reservedPreviewName(name: string): string | undefined {
  if (/^staging$/i.test(name))
    return 'the name staging is the staging deployment’s (docs/operations/staging.md): choose another, the branch’s say'
  if (/^pr-\d+$/i.test(name))
    return `the name ${name} is a pull request’s Preview, which CI deploys and deletes (docs/operations/previews.md): choose another, the branch’s say`
  return undefined
}

/** Whether git knows `ref` here. */
function gitHas(ref: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

async function checkAndDeploy(
  build: string,
  name: string,
  message: string,
  source: RawConfig,
  check = true,
): Promise<string> {
  if (!existsSync(join(build, BUILD_CONFIG))) fail(`${join(build, BUILD_CONFIG)} is missing: run npm run build first`)
  const problems = check ? previewBuildProblems(build, source) : []
  if (problems.length > 0) {
    fail(
      `This build cannot be deployed as a Preview:\n  ${problems.join('\n  ')}\n` +
        'A change to the Worker’s configuration gets its Preview once it is on the default branch, and migrations are append-only (docs/operations/previews.md).',
    )
  }
  try {
    await migratePreviews({ migrationsDir: join(build, 'migrations') })
  } catch (error) {
    fail((error as Error).message)
  }
  const { url, deployment, deploymentUrl } = await deployPreview({ config: writeDeployConfig(build), name, message })
  console.log(`Preview ${name}: ${url}`)
  await smokePreview(deploymentUrl, deployment)
  return url
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      build: { type: 'string' },
      pr: { type: 'string' },
      name: { type: 'string' },
      message: { type: 'string' },
      delete: { type: 'boolean', default: false },
      base: { type: 'string' },
    },
  })
  const [command] = positionals
  const source = readWranglerConfig('wrangler.toml')

  if (command === 'check') {
    if (!values.build) fail('give the pull request’s build with --build <dir>')
    const problems = previewBuildProblems(values.build, source)
    if (problems.length > 0) {
      fail(
        `This pull request's build cannot be deployed as a Preview:\n  ${problems.join('\n  ')}\n` +
          'A change to the Worker’s configuration gets its Preview once it is on the default branch, and migrations are append-only (docs/operations/previews.md).',
      )
    }
    console.log(
      'The build’s configuration is the default branch’s; its migrations are SQL files that leave the default branch’s untouched.',
    )
    return
  }

  if (command === 'deploy') {
    if (!values.build) fail('give the pull request’s build with --build <dir>')
    const name = previewName(values.pr)
    const url = await checkAndDeploy(values.build, name, values.message ?? `Pull request #${values.pr}`, source)
    setOutput('url', url)
    summary(`Preview \`${name}\`: ${url}`)
    return
  }

  if (command === 'delete') {
    await deletePreview(previewName(values.pr), 'wrangler.toml')
    return
  }

  if (command === 'sweep') {
    const names = await listPreviews(previewsWorkerName(source))
    let deleted = 0
    for (const name of names) {
      const number = /^pr-(\d+)$/.exec(name)?.[1]
      if (!number) continue
      const closed = await pullRequestClosed(number)
      if (closed === undefined) reportNotice(`Preview ${name}: GitHub knows no pull request #${number}; left alone.`)
      if (!closed) continue
      await deletePreview(name, 'wrangler.toml')
      deleted++
    }
    const said = `Previews of closed pull requests deleted: ${deleted} (of ${names.length} Previews).`
    console.log(said)
    summary(said)
    return
  }

  if (command === 'branch') {
    const name = values.name?.trim()
    if (!name) fail('give the Preview a name with --name <name> (the branch’s, say)')
    const taken = reservedPreviewName(name)
    if (taken) fail(taken)
    if (values.delete) {
      await deletePreview(name, 'wrangler.toml')
      return
    }
    const base = values.base?.trim() || (gitHas('origin/main') ? 'origin/main' : 'main')
    const problems = migrationProblems(migrationsAt(base), migrationsIn('migrations'))
    if (problems.length > 0) {
      fail(
        `This checkout's migrations cannot be run on the previews' database (against ${base}):\n  ${problems.join('\n  ')}\nMigrations are append-only and drop or rename nothing (docs/operations/previews.md).`,
      )
    }
    await checkAndDeploy('.', name, values.message ?? `By hand: ${name}`, source, false)
    return
  }

  fail('usage: node scripts/ci/preview.ts check|deploy|delete|sweep|branch …')
}

if (import.meta.main) await main()
