/**
 * One drill's world: a stand-in Cloudflare account (tests/support/cloudflare/), a stand-in form
 * service reached by the Worker's outbound fetch (api.web3forms.com), a stand-in GitHub API, and a
 * copy of the repository with the shared build. Commands run as an operator's shell or a CI step
 * would run them: in the copy, with the pinned Node 24 and wrangler first on PATH, the account's
 * token and id in the environment, and HTTPS going through the stand-in's edge.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { type Cloudflare, type StartOptions, startCloudflare } from '../../support/cloudflare/index.ts'
import { ArtifactStore, type JobOptions, type JobResult, runBash, runJob } from './actions'
import { type GitHubStandIn, startGitHub } from './github'
import { type Copy, copyRepository, pinDatabaseIds, REPO, replaceSamples, syncBuildConfig } from './project'
import { runbookBlock } from './runbook'

export const WORKER = 'akshara-labs-site'
export const FORM_ENDPOINT = 'https://api.web3forms.com/submit'

export interface Submission {
  accessKey: string
  message: string
  accepted: boolean
}

export interface Run {
  code: number
  output: string
}

export interface Drill {
  cf: Cloudflare
  github: GitHubStandIn
  copy: Copy
  artifacts: ArtifactStore
  env: Record<string, string>
  /** What reached the form service, in order. */
  submissions: Submission[]
  /** Keys the form service accepts (others are refused like an invalid access key). */
  validKeys: Set<string>
  /** A shell command in the copy (bash -eo pipefail), as an operator types it. */
  sh(script: string, options?: { input?: string; env?: Record<string, string> }): Promise<Run>
  /** A runbook block (docs/operations.md), as written, with its <placeholders> filled in. */
  runbook(id: string, values?: Record<string, string>, options?: { input?: string }): Promise<Run>
  /** A job of a workflow, as written (tests/drills/support/actions.ts). */
  job(
    options: Omit<JobOptions, 'workspace' | 'env' | 'artifacts'> & { env?: Record<string, string>; workspace?: string },
  ): Promise<JobResult>
  /** Creates the two databases with the runbook's commands and pastes their ids into wrangler.toml. */
  createDatabases(): Promise<{ production: string; previews: string }>
  /** Real values for the sample ones, `url` the production address, and the build's config in step. */
  goLive(url?: string): void
  workersDev: string
  dispose(): Promise<void>
}

export async function startDrill(options: StartOptions = {}): Promise<Drill> {
  const submissions: Submission[] = []
  const validKeys = new Set<string>()
  const cf = await startCloudflare({
    ...options,
    outbound: async (request) => {
      const url = new URL(request.url)
      if (`${url.origin}${url.pathname}` !== FORM_ENDPOINT) {
        return new Response(`The drill's network has no ${url.host}`, { status: 502 })
      }
      const body = (await request.json()) as { access_key?: string; message?: string }
      const accepted = validKeys.has(body.access_key ?? '')
      submissions.push({ accessKey: body.access_key ?? '', message: body.message ?? '', accepted })
      return Response.json(
        accepted
          ? { success: true, message: 'Email sent successfully!' }
          : { success: false, message: 'Invalid access key' },
      )
    },
  })
  const github = await startGitHub()
  const copy = copyRepository()
  const home = mkdtempSync(join(tmpdir(), 'drill-home-'))
  const artifacts = new ArtifactStore()
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...cf.env,
    PATH: [join(REPO, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    GITHUB_API_URL: github.url,
    // The smoke test's patience, as in CI and by hand (a minute): the stand-in starts each new
    // version's workerd on its first request, which takes seconds on a busy machine. A drill that
    // deploys a version meant to fail shortens it for that run.
    SMOKE_WAIT_SECONDS: '60',
  }
  for (const name of ['CI', 'GITHUB_ACTIONS', 'VITEST', 'VITEST_WORKER_ID', 'VITEST_POOL_ID', 'NODE_OPTIONS'])
    delete env[name]

  const sh = (script: string, opts: { input?: string; env?: Record<string, string> } = {}) =>
    runBash(script, copy.dir, { ...env, ...opts.env }, opts.input)

  const drill: Drill = {
    cf,
    github,
    copy,
    artifacts,
    env,
    submissions,
    validKeys,
    sh,
    runbook: (id, values = {}, opts = {}) => sh(runbookBlock(id, values), opts),
    job: (jobOptions) =>
      runJob({
        ...jobOptions,
        workspace: jobOptions.workspace ?? copy.dir,
        env: { ...env, ...jobOptions.env },
        artifacts,
      }),
    async createDatabases() {
      const run = await drill.runbook('first-deploy/databases')
      if (run.code !== 0) throw new Error(`d1 create failed:\n${run.output}`)
      const byName = (name: string) => {
        const db = cf.state.databases().find((d) => d.name === name)
        if (!db) throw new Error(`no database ${name} after d1 create`)
        return db.uuid
      }
      const ids = { production: byName('akshara-labs-enquiries'), previews: byName('akshara-labs-enquiries-preview') }
      pinDatabaseIds(copy, ids)
      syncBuildConfig(copy)
      return ids
    },
    goLive(url = cf.workersDevUrl(WORKER)) {
      replaceSamples(copy, url)
      syncBuildConfig(copy)
    },
    workersDev: cf.workersDevUrl(WORKER),
    async dispose() {
      await cf.stop()
      await github.close()
      artifacts.dispose()
      copy.remove()
      rmSync(home, { recursive: true, force: true })
    },
  }
  return drill
}
