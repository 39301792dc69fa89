/**
 * One drill's world, in the stand-ins every drill shares (global-setup.ts): an account of its own
 * at the stand-in Cloudflare (its own Workers, databases, tokens and edge), a repository of its own
 * at the stand-in GitHub API, a stand-in form service reached by the Worker's outbound fetch
 * (api.web3forms.com), the repository's Actions (actions.ts) and a copy of the repository with the
 * shared build. Commands run as an operator's shell or a CI step would run them: in the copy, with
 * the pinned Node 24 and wrangler first on PATH and HTTPS going through the account's edge; the
 * operator's shell holds the operator's token (docs/operations/first-deploy.md, step 1), a workflow's step
 * only the token its workflow gives it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { inject } from 'vitest'
import { compileCache } from '../../../scripts/test.ts'
import { type AccountOptions, type Cloudflare, connectCloudflare } from '../../support/cloudflare/index.ts'
import { type FormServicePlan, serverSideRefusal } from '../../support/form-service'
import { personShell } from '../../support/shell-env'
import { Actions, type JobOptions, type JobResult, runBash } from './actions'
import { connectGitHub, type GitHubStandIn } from './github'
import { DATABASES, PREVIEWS_WORKER, STAGING_WORKER, WORKER } from './names'
import { type Copy, copyRepository, pinDatabaseIds, REPO, replaceSamples, syncBuildConfig } from './project'
import { runbookBlock } from './runbook'

export { PREVIEWS_WORKER, STAGING_WORKER, WORKER }
export const FORM_ENDPOINT = 'https://api.web3forms.com/submit'
/** The Access service token the preview jobs hold, for the previews Worker (docs/operations/previews.md). */
export const ACCESS = { clientId: 'ci-client.access', clientSecret: 'ci-secret-5e7f' }
/** Staging's own Access service token, for the staging Worker (docs/operations/staging.md). */
export const STAGING_ACCESS = { clientId: 'ci-staging.access', clientSecret: 'ci-staging-secret-91b2' }

export interface FormPost {
  accessKey: string
  message: string
  accepted: boolean
}

export interface Run {
  code: number
  output: string
}

/**
 * The account's tokens, scoped as docs/operations/github-setup.md says: the operator's own login may do
 * everything; production's token reaches the production Worker, its database and the zone;
 * the previews' token reaches the Workers the Previews and staging live in and the previews' and
 * staging's databases, nothing of production's.
 */
export const TOKENS: NonNullable<AccountOptions['tokens']> = {
  operator: {},
  production: {
    workers: [WORKER],
    databases: [DATABASES.production],
    createWorkers: false,
    createDatabases: false,
    zones: true,
  },
  preview: {
    workers: [PREVIEWS_WORKER, STAGING_WORKER],
    databases: [DATABASES.previews, DATABASES.staging],
    createWorkers: false,
    createDatabases: false,
    zones: false,
  },
}

export interface Drill {
  cf: Cloudflare
  github: GitHubStandIn
  actions: Actions
  copy: Copy
  /** The operator's shell environment. */
  env: Record<string, string>
  /** What reached the form service, in order. */
  formPosts: FormPost[]
  /** Keys the form service accepts (others are refused like an invalid access key). */
  validKeys: Set<string>
  /**
   * The form service's plan: `free` refuses every post from a Worker (a server-side post), as
   * Web3Forms' free plan does; `paid` accepts them. `goLive()` makes it `paid`, as the statement
   * it writes in wrangler.toml says.
   */
  formServicePlan: FormServicePlan
  /** A shell command in the copy (bash -eo pipefail), as an operator types it. */
  sh(script: string, options?: { input?: string; env?: Record<string, string> }): Promise<Run>
  /** A runbook block (docs/operations/), as written, with its <placeholders> filled in. */
  runbook(
    id: string,
    values?: Record<string, string>,
    options?: { input?: string; env?: Record<string, string> },
  ): Promise<Run>
  /** A job of a workflow, as written (tests/drills/support/actions.ts). */
  job(options: JobOptions): Promise<JobResult>
  /** Creates the two databases with the runbook's commands and pastes their ids into wrangler.toml. */
  createDatabases(): Promise<{ production: string; previews: string }>
  /** Real values for the sample ones, `url` the production address, and the build's config in step. */
  goLive(url?: string): void
  workersDev: string
  dispose(): Promise<void>
}

export interface DrillOptions {
  cloudflare?: AccountOptions
}

let drills = 0

export async function startDrill(options: DrillOptions = {}): Promise<Drill> {
  const standin = inject('standin')
  if (!standin)
    throw new Error('The drills run with their global set-up (vitest.drills.config.ts): npm run test:drills')
  const formPosts: FormPost[] = []
  const validKeys = new Set<string>()
  const name = `drill-${process.pid}-${++drills}`
  // Pages of two: every list a script reads (versions, Previews, databases) runs to a second page.
  const cf = await connectCloudflare(standin, { tokens: TOKENS, pageSize: 2, ...options.cloudflare })
  await cf.control.setOutbound(async (request) => {
    const url = new URL(request.url)
    if (`${url.origin}${url.pathname}` !== FORM_ENDPOINT) {
      return new Response(`The drill's network has no ${url.host}`, { status: 502 })
    }
    const body = (await request.json()) as { access_key?: string; message?: string }
    const refused = serverSideRefusal(drill.formServicePlan, request.headers.get('Origin'))
    if (refused) {
      formPosts.push({ accessKey: body.access_key ?? '', message: body.message ?? '', accepted: false })
      return Response.json(refused)
    }
    const accepted = validKeys.has(body.access_key ?? '')
    formPosts.push({ accessKey: body.access_key ?? '', message: body.message ?? '', accepted })
    return Response.json(
      accepted
        ? { success: true, message: 'Email sent successfully!' }
        : { success: false, message: 'Invalid access key' },
    )
  })
  const github = await connectGitHub(standin.github, `aksharalabs/${name}`)
  const copy = copyRepository()
  const home = mkdtempSync(join(tmpdir(), 'drill-home-'))
  const env: Record<string, string> = {
    // A person's shell: without NODE_ENV=test and the rest that Vitest set for itself, so the
    // drills' `npm run build` builds what an operator's would.
    ...(personShell() as Record<string, string>),
    ...cf.env,
    CLOUDFLARE_API_TOKEN: cf.tokens.operator as string,
    PATH: [join(REPO, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    GITHUB_API_URL: github.url,
    // wrangler is a 15 MB bundle that every command loads: Node's on-disk compile cache spares
    // compiling it again in each of the drills' hundred-odd runs of it.
    NODE_COMPILE_CACHE: compileCache(),
    // The smoke test's patience, as in CI and by hand (a minute). A drill that deploys a version
    // meant to fail without answering shortens it for that run.
    SMOKE_WAIT_SECONDS: '60',
    // The smoke test's 5 answers in a row, a quarter of a second apart instead of 2 s: the same
    // judgement, in a fraction of the drills' time.
    SMOKE_INTERVAL_SECONDS: '0.25',
  }
  for (const variable of ['CI', 'GITHUB_ACTIONS', 'NODE_OPTIONS']) delete env[variable]
  // A runner's machine: no Cloudflare token or account, only what a workflow gives a step.
  const machine = { ...env }
  delete machine.CLOUDFLARE_API_TOKEN
  delete machine.CLOUDFLARE_ACCOUNT_ID
  const actions = new Actions({ copy, machine, repository: github.repository, token: github.token })

  const sh = (script: string, opts: { input?: string; env?: Record<string, string> } = {}) =>
    runBash(script, copy.dir, { ...env, ...opts.env }, opts.input)

  const drill: Drill = {
    cf,
    github,
    actions,
    copy,
    env,
    formPosts,
    validKeys,
    formServicePlan: 'free',
    sh,
    runbook: (id, values = {}, opts = {}) => sh(runbookBlock(id, values), opts),
    job: (jobOptions) => actions.runJob(jobOptions),
    async createDatabases() {
      const run = await drill.runbook('first-deploy/databases')
      if (run.code !== 0) throw new Error(`d1 create failed:\n${run.output}`)
      const databases = await cf.state.databases()
      const byName = (db: string) => {
        const found = databases.find((d) => d.name === db)
        if (!found) throw new Error(`no database ${db} after d1 create`)
        return found.uuid
      }
      const ids = { production: byName(DATABASES.production), previews: byName(DATABASES.previews) }
      pinDatabaseIds(copy, ids)
      syncBuildConfig(copy)
      return ids
    },
    goLive(url = cf.workersDevUrl(WORKER)) {
      replaceSamples(copy, url)
      syncBuildConfig(copy)
      drill.formServicePlan = 'paid'
    },
    workersDev: cf.workersDevUrl(WORKER),
    async dispose() {
      await cf.stop()
      actions.dispose()
      copy.remove()
      rmSync(home, { recursive: true, force: true })
    },
  }
  return drill
}
