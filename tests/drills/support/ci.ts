/**
 * The GitHub side of the drills: the events the workflows run on, the CI run that keeps a build,
 * and a production that already serves (what a drill starts from when its procedure is not the
 * first deploy).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobResult } from './actions'
import { type Drill, WORKER } from './drill'

export const REPOSITORY = 'aksharalabs/site'
const MAIN_HEAD = 'f'.repeat(40)

export const sha = (char: string) => char.repeat(40)

/** The `github` context of a `workflow_run` job triggered by a completed run of another workflow. */
export function workflowRun(options: {
  runId: string
  headSha: string
  event?: 'push' | 'workflow_dispatch' | 'pull_request'
  conclusion?: string
  headBranch?: string
  pullRequest?: number
  actor?: string
}) {
  return {
    event_name: 'workflow_run',
    ref: 'refs/heads/main',
    sha: MAIN_HEAD,
    repository: REPOSITORY,
    run_id: `${options.runId}-followup`,
    actor: options.actor ?? 'operator',
    event: {
      workflow_run: {
        id: options.runId,
        conclusion: options.conclusion ?? 'success',
        event: options.event ?? 'push',
        head_branch: options.headBranch ?? 'main',
        head_sha: options.headSha,
        head_repository: { full_name: REPOSITORY },
        actor: { login: options.actor ?? 'operator' },
        pull_requests: options.pullRequest ? [{ number: options.pullRequest }] : [],
      },
    },
  }
}

/**
 * A CI run on main: the test job's last steps (the version message and the upload of the build
 * `npm test` made), as ci.yml writes them. The build is the drill's copy of the shared build.
 */
export function ciRun(
  drill: Drill,
  options: { runId: string; sha: string; dispatch?: { reason: string; actor: string } },
): Promise<JobResult> {
  return drill.job({
    workflow: '.github/workflows/ci.yml',
    job: 'test',
    fromStep: 'The version message for the deploy',
    github: {
      event_name: options.dispatch ? 'workflow_dispatch' : 'push',
      ref: 'refs/heads/main',
      sha: options.sha,
      repository: REPOSITORY,
      run_id: options.runId,
      actor: options.dispatch?.actor ?? 'operator',
    },
    inputs: options.dispatch ? { reason: options.dispatch.reason, audit_override: false } : {},
  })
}

/** The secrets of the `staging` and `production` environments, for this drill's account. */
export function environmentSecrets(drill: Drill, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CLOUDFLARE_API_TOKEN: drill.cf.env.CLOUDFLARE_API_TOKEN as string,
    CLOUDFLARE_PREVIEW_API_TOKEN: drill.cf.env.CLOUDFLARE_API_TOKEN as string,
    CLOUDFLARE_ACCOUNT_ID: drill.cf.accountId,
    ...extra,
  }
}

/** The Deploy workflow for one CI run: staging, then production (skipped as the workflow says). */
export async function deployRun(
  drill: Drill,
  options: {
    runId: string
    sha: string
    event?: 'push' | 'workflow_dispatch'
    secrets?: Record<string, string>
    /** SMOKE_WAIT_SECONDS for the production job (shorter when its version is meant to fail). */
    smokeWait?: number
  },
  between?: () => void | Promise<void>,
): Promise<{ staging: JobResult; production: JobResult }> {
  const github = workflowRun({ runId: options.runId, headSha: options.sha, event: options.event })
  const secrets = environmentSecrets(drill, options.secrets)
  const staging = await drill.job({ workflow: '.github/workflows/deploy.yml', job: 'staging', github, secrets })
  await between?.()
  const production = await drill.job({
    workflow: '.github/workflows/deploy.yml',
    job: 'production',
    github,
    secrets,
    needs: { staging: { result: staging.result } },
    env: options.smokeWait ? { SMOKE_WAIT_SECONDS: String(options.smokeWait) } : {},
  })
  return { staging, production }
}

/**
 * Production as it stands after the first deploy (docs/operations.md § 1): both databases created
 * with the runbook's commands and migrated, real values in the copy, and a version serving with the
 * form key. The deploy itself is the runbook's `wrangler deploy --secrets-file`, without the
 * rebuild that `npm run deploy` adds (tests/drills/first-deploy.test.ts runs that one).
 */
export async function establishProduction(drill: Drill, options: { key: string; sha: string }): Promise<string> {
  await drill.createDatabases()
  const migrate = await drill.runbook('first-deploy/migrations')
  if (migrate.code !== 0) throw new Error(`migrations failed:\n${migrate.output}`)
  drill.goLive()
  drill.validKeys.add(options.key)
  const dir = mkdtempSync(join(tmpdir(), 'drill-secrets-'))
  try {
    writeFileSync(join(dir, 'secrets.env'), `CONTACT_FORM_ACCESS_KEY=${options.key}\n`, { mode: 0o600 })
    const run = await drill.sh(
      `npx wrangler deploy --config dist/server/wrangler.json --secrets-file "${join(dir, 'secrets.env')}" --message "main ${options.sha}"`,
    )
    if (run.code !== 0) throw new Error(`first deploy failed:\n${run.output}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const version = drill.cf.state.worker(WORKER).deployment?.versions[0]?.id
  if (!version) throw new Error('nothing serves after the first deploy')
  return version
}

/** The single version serving production at 100%, or a description of what serves instead. */
export function serving(drill: Drill): string {
  const versions = drill.cf.state.worker(WORKER).deployment?.versions ?? []
  return versions.length === 1 && versions[0]?.percentage === 100
    ? (versions[0]?.id as string)
    : JSON.stringify(versions)
}

/**
 * A push to main whose staging passed: the CI run keeps the build, and the Deploy workflow's
 * production job runs (staging itself is drilled in tests/drills/push-to-main.test.ts).
 */
export async function pushToProduction(
  drill: Drill,
  options: { runId: string; sha: string; secrets?: Record<string, string> },
): Promise<JobResult> {
  const ci = await ciRun(drill, options)
  if (ci.result !== 'success') throw new Error(`CI run ${options.runId} failed:\n${ci.log}`)
  return drill.job({
    workflow: '.github/workflows/deploy.yml',
    job: 'production',
    github: workflowRun({ runId: options.runId, headSha: options.sha }),
    secrets: environmentSecrets(drill, options.secrets),
    needs: { staging: { result: 'success' } },
  })
}
