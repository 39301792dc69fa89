/**
 * The GitHub side of the drills: the repository's settings as docs/operations/github-setup.md makes them
 * (environments with their secrets and deployment branches, staging's database id among them), the CI run on main that keeps a build, the Deploy run it triggers, and a production
 * that already serves (what a drill starts from when its procedure is not the first deploy).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobResult, RunResult } from './actions'
import { ACCESS, type Drill, PREVIEWS_WORKER, STAGING_ACCESS, STAGING_WORKER, WORKER } from './drill'
import { DATABASES } from './names'
import { pinDatabaseIds, placeBuild } from './project'

export const CI = '.github/workflows/ci.yml'
export const DEPLOY = '.github/workflows/deploy.yml'

/**
 * The repository's settings (docs/operations/github-setup.md): production's token in `production` only,
 * the previews' token in `staging` and `preview`, each environment deploying from main only, and
 * no Cloudflare secret at the repository level.
 */
export async function configureGitHub(drill: Drill, options: { stagingKey?: string } = {}): Promise<void> {
  const { cf, actions } = drill
  const branches = ['main']
  // Each environment its own Access service token: a preview job's cannot open staging.
  const access = { CF_ACCESS_CLIENT_ID: ACCESS.clientId, CF_ACCESS_CLIENT_SECRET: ACCESS.clientSecret }
  const stagingAccess = {
    CF_ACCESS_CLIENT_ID: STAGING_ACCESS.clientId,
    CF_ACCESS_CLIENT_SECRET: STAGING_ACCESS.clientSecret,
  }
  actions.environments.production = {
    secrets: { CLOUDFLARE_API_TOKEN: cf.tokens.production as string, CLOUDFLARE_ACCOUNT_ID: cf.accountId },
    branches,
  }
  actions.environments.staging = {
    secrets: {
      CLOUDFLARE_PREVIEW_API_TOKEN: cf.tokens.preview as string,
      CLOUDFLARE_ACCOUNT_ID: cf.accountId,
      ...(options.stagingKey ? { STAGING_CONTACT_FORM_ACCESS_KEY: options.stagingKey } : {}),
      ...stagingAccess,
    },
    branches,
  }
  actions.environments.preview = {
    secrets: {
      CLOUDFLARE_PREVIEW_API_TOKEN: cf.tokens.preview as string,
      CLOUDFLARE_ACCOUNT_ID: cf.accountId,
      ...access,
    },
    branches,
  }
  const staging = (await cf.state.databases()).find((d) => d.name === DATABASES.staging)
  if (staging) {
    ;(actions.environments.staging as { secrets: Record<string, string> }).secrets.STAGING_DATABASE_ID = staging.uuid
    ;(actions.environments.preview as { secrets: Record<string, string> }).secrets.STAGING_DATABASE_ID = staging.uuid
  }
}

/**
 * A CI run of main at `sha`: the test job's last steps (the version message and the upload of the
 * build `npm test` made), as ci.yml writes them, in a checkout of that commit holding the shared
 * build. `rerun`: the same run again (refused once it is more than 30 days old).
 */
export async function ciRun(
  drill: Drill,
  options: { sha: string; rerun?: string; dispatch?: { reason: string; actor: string }; before?: string },
): Promise<{ id: string; result: JobResult; migrations?: JobResult; conclusion: 'success' | 'failure' }> {
  const id = options.rerun ?? drill.actions.newRunId()
  const github = {
    event_name: options.dispatch ? 'workflow_dispatch' : 'push',
    ref: 'refs/heads/main',
    sha: options.sha,
    run_id: id,
    actor: options.dispatch?.actor ?? 'operator',
  }
  if (options.rerun) drill.actions.assertRerunnable(options.rerun)
  else drill.actions.record({ id, workflow: CI, github, inputs: {} })
  const tree = drill.copy.checkout(options.sha)
  placeBuild(tree)
  const result = await drill.job({
    workflow: CI,
    job: 'test',
    fromStep: 'The version message for the deploy',
    workspace: tree,
    github,
    inputs: options.dispatch ? { reason: options.dispatch.reason, audit_override: false } : {},
  })
  // A push to main also runs the append-only check against main before the push.
  const migrations = options.before
    ? await drill.job({ workflow: CI, job: 'migrations', github: { ...github, event: { before: options.before } } })
    : undefined
  const failed = [result, migrations].some((job) => job && job.result === 'failure')
  return { id, result, migrations, conclusion: failed ? 'failure' : 'success' }
}

/** What GitHub delivers when a CI run of main completes: the Deploy workflow runs (staging, then production). */
export function ciCompleted(
  drill: Drill,
  ci: { id: string; sha: string; event?: 'push' | 'workflow_dispatch'; conclusion?: 'success' | 'failure' },
  options: { env?: Record<string, string>; between?: (job: string, result: JobResult) => void | Promise<void> } = {},
): Promise<RunResult[]> {
  return drill.actions.trigger(
    {
      name: 'workflow_run',
      workflow: 'CI',
      runId: ci.id,
      event: ci.event ?? 'push',
      headBranch: 'main',
      headSha: ci.sha,
      conclusion: ci.conclusion,
    },
    options,
  )
}

/** The Deploy run among the runs an event started. */
export function deployOf(runs: RunResult[]): RunResult {
  const deploy = runs.find((r) => r.workflow === DEPLOY)
  if (!deploy) throw new Error(`no Deploy run among ${runs.map((r) => r.workflow).join(', ')}`)
  return deploy
}

/** A push to main: the CI run keeps the build, and the Deploy workflow runs for it. */
export async function pushToMain(
  drill: Drill,
  options: {
    sha: string
    env?: Record<string, string>
    between?: (job: string, result: JobResult) => void | Promise<void>
  },
): Promise<{
  ci: string
  migrations?: JobResult
  staging: JobResult
  production: JobResult
  deploy: RunResult
}> {
  const ci = await ciRun(drill, { sha: options.sha, before: drill.copy.revParse(`${options.sha}^`) })
  if (ci.result.result !== 'success') throw new Error(`CI run ${ci.id} failed:\n${ci.result.log}`)
  const deploy = deployOf(await ciCompleted(drill, { id: ci.id, sha: options.sha, conclusion: ci.conclusion }, options))
  return {
    ci: ci.id,
    migrations: ci.migrations,
    staging: deploy.jobs.staging as JobResult,
    production: deploy.jobs.production as JobResult,
    deploy,
  }
}

/**
 * A commit deployed to production alone: CI run by hand on main (the emergency deploy of
 * docs/operations/github-setup.md), whose Deploy run skips staging. For drills whose subject is production.
 */
export async function deployToProduction(
  drill: Drill,
  options: { sha: string; env?: Record<string, string> },
): Promise<{ ci: string; production: JobResult; deploy: RunResult }> {
  const ci = await ciRun(drill, { sha: options.sha, dispatch: { reason: 'Drill', actor: 'ops-lead' } })
  if (ci.result.result !== 'success') throw new Error(`CI run ${ci.id} failed:\n${ci.result.log}`)
  const deploy = deployOf(
    await ciCompleted(drill, { id: ci.id, sha: options.sha, event: 'workflow_dispatch' }, { env: options.env }),
  )
  return { ci: ci.id, production: deploy.jobs.production as JobResult, deploy }
}

/**
 * Production as it stands after the first deploy (docs/operations/first-deploy.md and github-setup.md): the account holds
 * the three databases, migrated, and one version serving with the form key (adopted from the one
 * upload every drill shares, global-setup.ts); the copy has their ids pinned and real values in
 * place, committed on main; the previews Worker exists; GitHub is set up. Returns the version and
 * the commit it names.
 */
export async function establishProduction(
  drill: Drill,
  options: { key: string; stagingKey?: string },
): Promise<{ version: string; sha: string }> {
  const { cf } = drill
  const standin = (await import('vitest')).inject('standin')
  const databases = Object.fromEntries(Object.values(DATABASES).map((name) => [name, crypto.randomUUID()]))
  pinDatabaseIds(drill.copy, {
    production: databases[DATABASES.production] as string,
    previews: databases[DATABASES.previews] as string,
  })
  drill.goLive()
  const sha = drill.copy.commit('Go live: real values and the databases’ ids')
  const adopted = await cf.control.adopt({
    from: standin.template,
    worker: WORKER,
    databases,
    secrets: { CONTACT_FORM_ACCESS_KEY: options.key },
    message: `main ${sha}`,
  })
  drill.validKeys.add(options.key)
  if (options.stagingKey) drill.validKeys.add(options.stagingKey)
  // docs/operations/github-setup.md: the previews and staging Workers, made once by hand so the token can be
  // scoped to them, each behind an Access application with its own service token (§§ 4, 5).
  await cf.control.createWorker(PREVIEWS_WORKER, { workersDev: false, previewsEnabled: true })
  await cf.control.createWorker(STAGING_WORKER, { workersDev: false, previewsEnabled: true })
  await cf.control.protectWorker(PREVIEWS_WORKER, ACCESS)
  await cf.control.protectWorker(STAGING_WORKER, STAGING_ACCESS)
  await configureGitHub(drill, { stagingKey: options.stagingKey })
  return { version: adopted.version, sha }
}

/** The single version serving production at 100% (as the API says), or a description of what serves instead. */
export async function serving(drill: Drill): Promise<string> {
  const versions = (await drill.cf.state.worker(WORKER)).deployment?.versions ?? []
  return versions.length === 1 && versions[0]?.percentage === 100
    ? (versions[0]?.id as string)
    : JSON.stringify(versions)
}

/** Production's newest uploaded version (serving or not), as the API lists it. */
export async function latestVersion(drill: Drill) {
  return (await drill.cf.state.worker(WORKER)).latestVersion
}

/** A secrets file only its reader may read, removed after `work`. */
export async function withSecretsFile<T>(text: string, work: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'drill-secrets-'))
  try {
    const file = join(dir, 'secrets.env')
    writeFileSync(file, text, { mode: 0o600 })
    return await work(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A job started by its workflow's schedule, as GitHub's cron starts it: on main's head. */
export function scheduledJob(drill: Drill, workflow: string, job: string): Promise<JobResult> {
  return drill.job({
    workflow,
    job,
    github: {
      event_name: 'schedule',
      ref: 'refs/heads/main',
      sha: drill.copy.head(),
      run_id: drill.actions.newRunId(),
    },
  })
}
