/**
 * Runs this repository's workflows the way GitHub Actions would, on this machine: each `run:` step
 * as written (bash -eo pipefail, in the checkout, with the workflow's, job's and step's `env`,
 * `${{ }}` expressions evaluated, `GITHUB_OUTPUT`, `GITHUB_ENV` and `GITHUB_STEP_SUMMARY` honoured),
 * each `if:` evaluated, steps skipped after a failure unless their condition says otherwise. So a
 * drill runs the workflow, not a copy of its commands. What GitHub holds is modelled too:
 *
 * - **Triggers** (`trigger`): an event runs every workflow whose `on:` matches it (types, the
 *   `branches` filter on the base branch of a pull request or the head branch of a `workflow_run`,
 *   the `workflows` a `workflow_run` follows), read from the default branch, as GitHub does for
 *   `pull_request_target` and `workflow_run`.
 * - **Secrets and variables**: repository secrets and variables, and environments with their own
 *   secrets and variables and their deployment branches. A job sees the repository's, plus its
 *   environment's when its ref may deploy there
 *   (https://docs.github.com/en/actions/deployment/targeting-different-environments/using-environments-for-deployment).
 *   Nothing else: the machine's environment carries no Cloudflare token.
 * - **Checkouts**: a run's workflow file is the one at its `github.sha`, and `actions/checkout` gives
 *   the job a fresh tree of the commit it asks for (default: `github.sha`), so a re-run of an old run
 *   runs that run's scripts and migrations.
 * - **Runs, re-runs and artifacts**: each run is kept with its context; `rerun` runs it again as it
 *   was, and is refused once the run is more than 30 days old; an artifact is gone after its
 *   `retention-days` (https://docs.github.com/en/actions/managing-workflow-runs/re-running-workflows-and-jobs,
 *   https://docs.github.com/en/actions/using-workflows/storing-workflow-data-as-artifacts). Days
 *   pass when the drill says (`advanceDays`).
 * - **Concurrency** (`concurrency`): what GitHub does with runs queued in one group: one runs, one
 *   waits, and a newer one replaces the one waiting
 *   (https://docs.github.com/en/actions/using-jobs/using-concurrency).
 *
 * The actions the workflows use are played by the drill: `actions/checkout`, `actions/setup-node`
 * (Node 24 is on PATH), `actions/upload-artifact` and `actions/download-artifact` (an upload of a
 * name already in the run fails with GitHub's 409 unless `overwrite: true`, as upload-artifact's
 * action.yml documents). Any other action fails the step, naming it. A step that is exactly
 * `npm ci` or `npm ci --ignore-scripts` is played too: the checkout's node_modules is this
 * checkout's own, installed once (scripts/ci/ run on it exactly as on a runner that installed
 * without install scripts; the project's own check of that is in docs/operations/github-setup.md). Any
 * other install in a step fails it, so a drill never reinstalls.
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'
import { condition, interpolate, type Status, type Value } from './expressions'
import type { Copy } from './project'

/** GitHub keeps a run re-runnable for 30 days. */
export const RERUN_DAYS = 30

export interface Environment {
  secrets: Record<string, string>
  vars?: Record<string, string>
  /** Deployment branches (*Selected branches*); undefined: any branch may deploy. */
  branches?: string[]
}

interface StoredArtifact {
  dir: string
  day: number
  retentionDays: number
}

/** The artifacts of workflow runs, by run id, as GitHub keeps them. */
export class ArtifactStore {
  private readonly root = mkdtempSync(join(tmpdir(), 'drill-artifacts-'))
  private readonly runs = new Map<string, Map<string, StoredArtifact>>()
  private serial = 0

  /** Uploads `paths` (relative to `cwd`) as `name` in `runId`; throws GitHub's 409 on a duplicate name without overwrite. */
  upload(
    runId: string,
    name: string,
    cwd: string,
    paths: string[],
    options: { overwrite: boolean; day: number; retentionDays: number },
  ): void {
    const run = this.runs.get(runId) ?? new Map<string, StoredArtifact>()
    this.runs.set(runId, run)
    if (run.has(name) && !options.overwrite) {
      throw new Error(
        'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run',
      )
    }
    const dir = join(this.root, `${runId}-${name}-${++this.serial}`)
    for (const path of paths) {
      if (!existsSync(join(cwd, path))) throw new Error(`upload-artifact: no files found at ${path}`)
      cpSync(join(cwd, path), join(dir, path), { recursive: true })
    }
    run.set(name, { dir, day: options.day, retentionDays: options.retentionDays })
  }

  download(runId: string, name: string, destination: string, day: number): void {
    const artifact = this.runs.get(runId)?.get(name)
    if (!artifact)
      throw new Error(`Unable to download artifact(s): Artifact not found for name: ${name} (run ${runId})`)
    if (day > artifact.day + artifact.retentionDays) {
      // Guess: an expired artifact is not listed for the run any more, so the action finds none.
      throw new Error(
        `Unable to download artifact(s): Artifact not found for name: ${name} (run ${runId}: it expired after ${artifact.retentionDays} days)`,
      )
    }
    mkdirSync(destination, { recursive: true })
    cpSync(artifact.dir, destination, { recursive: true })
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true })
  }
}

export interface JobOptions {
  /** The workflow file, e.g. `.github/workflows/deploy.yml`. */
  workflow: string
  job: string
  /** The `github` context: event, event_name, ref, sha, repository, actor, run_id… */
  github: Record<string, Value>
  inputs?: Record<string, Value>
  needs?: Record<string, { result: string; outputs?: Record<string, string> }>
  /**
   * The job's workspace, already checked out (a pull request's own workflow, run from its tree);
   * its workflow file is read from there. Otherwise the workspace starts empty, the workflow file is
   * the one at `github.sha`, and `actions/checkout` fills it.
   */
  workspace?: string
  /** Run only the steps from the one with this name on (the earlier ones are the drill's business). */
  fromStep?: string
  /** More environment for every step (e.g. SMOKE_WAIT_SECONDS). */
  env?: Record<string, string>
}

export interface StepRecord {
  name: string
  outcome: 'success' | 'failure' | 'skipped'
  output: string
}

export interface JobResult {
  result: 'success' | 'failure' | 'skipped'
  steps: StepRecord[]
  /** Everything the steps printed, in order. */
  log: string
  summary: string
  /** The commits `actions/checkout` checked out. */
  checkouts: string[]
  /** The job's outputs (none of this project's workflows declare any; kept for `needs`). */
  outputs: Record<string, string>
}

export interface RunResult {
  id: string
  workflow: string
  jobs: Record<string, JobResult>
}

interface RunRecord {
  id: string
  workflow: string
  github: Record<string, Value>
  inputs: Record<string, Value>
  day: number
}

// biome-ignore lint/suspicious/noExplicitAny: workflow YAML.
type Yaml = any

/** A bash script (`-eo pipefail`, no profile), as a workflow step or an operator runs it: its exit code and output. */
export function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  input = '',
): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env: env as NodeJS.ProcessEnv,
      // No input: stdin is /dev/null, as in a workflow step. With input, a
      // script that exits before reading it closes the pipe first (EPIPE),
      // which is the script's business, not an error of the run.
      stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }))
    if (child.stdin) {
      child.stdin.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') reject(error)
      })
      child.stdin.end(input)
    }
  })
}

function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  if (!existsSync(file)) return outputs
  const lines = readFileSync(file, 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const end = lines.indexOf(heredoc[2] as string, i + 1)
      outputs[heredoc[1] as string] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return outputs
}

/** A branch filter (`branches:`), with GitHub's `*` (no slash) and `**` patterns. */
export function branchMatches(patterns: string[] | undefined, branch: string): boolean {
  if (!patterns) return true
  return patterns.some((pattern) => {
    const source = pattern
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*')
    return new RegExp(`^${source}$`).test(branch)
  })
}

/** The events a drill raises: what GitHub would deliver to the workflows. */
export type GitHubEvent =
  | {
      name: 'pull_request_target' | 'pull_request'
      action: 'opened' | 'synchronize' | 'reopened' | 'closed'
      number: number
      /** The branch it would merge into. */
      base: string
      head: string
      headSha: string
      author?: string
    }
  | {
      name: 'workflow_run'
      /** The `name:` of the workflow whose run completed. */
      workflow: string
      runId: string
      conclusion?: string
      event: 'push' | 'workflow_dispatch' | 'pull_request'
      headBranch: string
      headSha: string
      pullRequest?: number
      actor?: string
    }

function triggers(workflow: Yaml): Record<string, Yaml> {
  const on = workflow?.on ?? workflow?.true
  if (typeof on === 'string') return { [on]: {} }
  if (Array.isArray(on)) return Object.fromEntries(on.map((t) => [t, {}]))
  return on ?? {}
}

/** A repository's Actions: its secrets, variables, environments, runs and artifacts. */
export class Actions {
  readonly artifacts = new ArtifactStore()
  readonly environments: Record<string, Environment> = {}
  readonly secrets: Record<string, string> = {}
  readonly vars: Record<string, string> = {}
  private readonly runs = new Map<string, RunRecord>()
  private nextRun = 100
  /** Days since the drill began (runs and artifacts expire by it). */
  day = 0
  private readonly copy: Copy
  private readonly machine: Record<string, string>
  readonly repository: string
  readonly token: string

  constructor(options: { copy: Copy; machine: Record<string, string>; repository: string; token: string }) {
    this.copy = options.copy
    this.machine = options.machine
    this.repository = options.repository
    this.token = options.token
  }

  advanceDays(days: number): void {
    this.day += days
  }

  newRunId(): string {
    return String(this.nextRun++)
  }

  /** Keeps a run the drill plays part of (a CI run: its last steps), for re-runs. */
  record(run: { id: string; workflow: string; github: Record<string, Value>; inputs: Record<string, Value> }): void {
    this.runs.set(run.id, { ...run, day: this.day })
  }

  /** Throws as GitHub refuses a re-run of a run more than 30 days old. */
  assertRerunnable(id: string): void {
    const record = this.runs.get(id)
    if (!record) throw new Error(`no run ${id}`)
    if (this.day - record.day > RERUN_DAYS) {
      // Guess at GitHub's words; the rule is its documented 30 days.
      throw new Error(`Run ${id} cannot be re-run: it was created more than ${RERUN_DAYS} days ago.`)
    }
  }

  private workflowText(file: string, sha: string | undefined, workspace?: string): string {
    if (workspace) return readFileSync(join(workspace, file), 'utf8')
    return this.copy.show(sha ?? this.copy.head(), file)
  }

  /** Runs one job of a workflow, as written. */
  async runJob(options: JobOptions): Promise<JobResult> {
    const github: Record<string, Value> = { token: this.token, repository: this.repository, ...options.github }
    const workflow: Yaml = parse(this.workflowText(options.workflow, String(github.sha ?? ''), options.workspace))
    const job: Yaml = workflow.jobs?.[options.job]
    if (!job) throw new Error(`${options.workflow} has no job ${options.job}`)
    const runnerTemp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    const files = mkdtempSync(join(tmpdir(), 'runner-files-'))
    const emptyWorkspace = options.workspace ? undefined : mkdtempSync(join(tmpdir(), 'runner-workspace-'))
    let workspace = options.workspace ?? (emptyWorkspace as string)
    const stepsContext: Record<string, { outcome: string; conclusion: string; outputs: Record<string, string> }> = {}
    const extraEnv: Record<string, string> = {}
    const result: JobResult = { result: 'success', steps: [], log: '', summary: '', checkouts: [], outputs: {} }
    const finish = (outcome: JobResult) => {
      rmSync(runnerTemp, { recursive: true, force: true })
      rmSync(files, { recursive: true, force: true })
      if (emptyWorkspace) rmSync(emptyWorkspace, { recursive: true, force: true })
      return outcome
    }

    // The job's environment: its secrets and variables only when the ref may deploy there.
    const environmentName =
      typeof job.environment === 'string' ? job.environment : (job.environment?.name as string | undefined)
    let environment: Environment | undefined
    const contexts = (env: Record<string, string>): Record<string, Value> => ({
      github,
      secrets: { ...this.secrets, ...environment?.secrets, GITHUB_TOKEN: this.token },
      inputs: options.inputs ?? {},
      needs: options.needs ?? {},
      steps: stepsContext,
      runner: { temp: runnerTemp, os: 'Linux' },
      env,
      vars: { ...this.vars, ...environment?.vars },
      job: {},
      matrix: {},
    })

    const needsOk = Object.values(options.needs ?? {}).every((n) => n.result === 'success')
    if (!condition(job.if, contexts({}), { success: needsOk })) return finish({ ...result, result: 'skipped' })

    if (environmentName !== undefined) {
      const name = interpolate(String(environmentName), contexts({}), { success: true })
      environment = this.environments[name]
      const branch = String(github.ref ?? '').replace(/^refs\/heads\//, '')
      if (environment && !branchMatches(environment.branches, branch)) {
        result.log = `Branch "${branch}" is not allowed to deploy to ${name} due to environment protection rules.\n`
        return finish({ ...result, result: 'failure' })
      }
    }

    const baseEnv = (): Record<string, string> => {
      const status: Status = { success: true }
      const env: Record<string, string> = {
        ...this.machine,
        ...options.env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        RUNNER_TEMP: runnerTemp,
        GITHUB_WORKSPACE: workspace,
        GITHUB_REPOSITORY: String(github.repository ?? ''),
        GITHUB_SHA: String(github.sha ?? ''),
        GITHUB_REF: String(github.ref ?? ''),
        GITHUB_EVENT_NAME: String(github.event_name ?? ''),
        GITHUB_RUN_ID: String(github.run_id ?? ''),
        GITHUB_ACTOR: String(github.actor ?? ''),
        ...extraEnv,
      }
      for (const level of [workflow.env, job.env]) {
        for (const [k, v] of Object.entries<Value>(level ?? {})) env[k] = interpolate(String(v), contexts(env), status)
      }
      return env
    }

    let jobOk = true
    const steps: Yaml[] = job.steps ?? []
    const first = options.fromStep ? steps.findIndex((s) => s.name === options.fromStep) : 0
    if (first < 0) throw new Error(`${options.workflow} ${options.job} has no step named ${options.fromStep}`)
    for (const [index, step] of steps.entries()) {
      if (index < first) continue
      const name = step.name ?? step.uses ?? String(step.run).split('\n')[0]
      const env = baseEnv()
      const ctx = contexts(env)
      const status: Status = { success: jobOk }
      if (!condition(step.if, ctx, status)) {
        result.steps.push({ name, outcome: 'skipped', output: '' })
        if (step.id) stepsContext[step.id] = { outcome: 'skipped', conclusion: 'skipped', outputs: {} }
        continue
      }
      for (const [k, v] of Object.entries<Value>(step.env ?? {})) env[k] = interpolate(String(v), ctx, status)
      const withs: Record<string, string> = {}
      for (const [k, v] of Object.entries<Value>(step.with ?? {}))
        withs[k] = interpolate(String(v), { ...ctx, env }, status)

      let ok = true
      let output = ''
      let outputs: Record<string, string> = {}
      try {
        if (step.uses) {
          const action = String(step.uses).split('@')[0]
          if (action === 'actions/checkout') {
            const ref = withs.ref || String(github.sha ?? '')
            // fetch-depth 0: the whole history, as git commands in the job need it.
            workspace = this.copy.checkout(ref, { history: withs['fetch-depth'] === '0' })
            result.checkouts.push(ref)
            output = `Checked out ${ref}\n`
          } else if (action === 'actions/setup-node') {
            // Node 24 is first on PATH in the drill's environment.
          } else if (action === 'actions/download-artifact') {
            const runId = withs['run-id'] || String(github.run_id)
            const destination = resolve(workspace, withs.path || '.')
            this.artifacts.download(runId, withs.name as string, destination, this.day)
            output = `Downloaded ${withs.name} (run ${runId}) to ${destination}\n`
          } else if (action === 'actions/upload-artifact') {
            const paths = (withs.path ?? '')
              .split('\n')
              .map((p) => p.trim())
              .filter(Boolean)
            this.artifacts.upload(String(github.run_id), withs.name as string, workspace, paths, {
              overwrite: withs.overwrite === 'true',
              day: this.day,
              retentionDays: Number(withs['retention-days'] || 90),
            })
            output = `Uploaded ${withs.name}\n`
          } else throw new Error(`the drill does not play the action ${step.uses}`)
        } else if (/^npm ci( --ignore-scripts)?$/.test(String(step.run).trim())) {
          output = 'node_modules: installed once for every drill\n'
        } else if (/\bnpm (ci|install|i)\b/.test(String(step.run))) {
          throw new Error(`the drill does not reinstall node_modules: ${step.run}`)
        } else {
          const outputFile = join(files, `output-${index}`)
          const summaryFile = join(files, `summary-${index}`)
          const envFile = join(files, `env-${index}`)
          writeFileSync(outputFile, '')
          writeFileSync(envFile, '')
          const script = interpolate(String(step.run), { ...ctx, env }, status)
          const run = await runBash(
            script,
            step['working-directory'] ? join(workspace, step['working-directory']) : workspace,
            {
              ...env,
              GITHUB_WORKSPACE: workspace,
              GITHUB_OUTPUT: outputFile,
              GITHUB_STEP_SUMMARY: summaryFile,
              GITHUB_ENV: envFile,
            },
          )
          output = run.output
          ok = run.code === 0
          outputs = readOutputs(outputFile)
          Object.assign(extraEnv, readOutputs(envFile))
          if (existsSync(summaryFile)) result.summary += readFileSync(summaryFile, 'utf8')
        }
      } catch (error) {
        ok = false
        output += `${(error as Error).message}\n`
      }
      result.log += `▶ ${name}\n${output}`
      const outcome = ok ? 'success' : 'failure'
      result.steps.push({ name, outcome, output })
      if (step.id)
        stepsContext[step.id] = {
          outcome,
          conclusion: ok || step['continue-on-error'] ? 'success' : 'failure',
          outputs,
        }
      if (!ok && !step['continue-on-error']) jobOk = false
    }
    result.result = jobOk ? 'success' : 'failure'
    return finish(result)
  }

  /** Runs a workflow's jobs in the order their `needs` give, as one run (recorded for re-runs). */
  async runWorkflow(run: {
    workflow: string
    github: Record<string, Value>
    inputs?: Record<string, Value>
    id?: string
    env?: Record<string, string>
    /** Between two jobs (e.g. to break production after staging passed). */
    between?: (job: string, result: JobResult) => void | Promise<void>
  }): Promise<RunResult> {
    const id = run.id ?? this.newRunId()
    const github: Record<string, Value> = { ...run.github, run_id: id }
    if (!this.runs.has(id)) {
      this.runs.set(id, { id, workflow: run.workflow, github, inputs: run.inputs ?? {}, day: this.day })
    }
    const workflow: Yaml = parse(this.workflowText(run.workflow, String(github.sha ?? '')))
    const jobs: Record<string, JobResult> = {}
    const pending = Object.keys(workflow.jobs ?? {})
    while (pending.length > 0) {
      const index = pending.findIndex((name) => {
        const needs = workflow.jobs[name]?.needs
        const list: string[] = needs === undefined ? [] : Array.isArray(needs) ? needs : [needs]
        return list.every((n) => jobs[n] !== undefined)
      })
      if (index < 0) throw new Error(`${run.workflow}: jobs wait on each other`)
      const [name] = pending.splice(index, 1) as [string]
      const needs = workflow.jobs[name]?.needs
      const list: string[] = needs === undefined ? [] : Array.isArray(needs) ? needs : [needs]
      jobs[name] = await this.runJob({
        workflow: run.workflow,
        job: name,
        github,
        inputs: run.inputs,
        needs: Object.fromEntries(list.map((n) => [n, { result: (jobs[n] as JobResult).result }])),
        env: run.env,
      })
      await run.between?.(name, jobs[name] as JobResult)
    }
    return { id, workflow: run.workflow, jobs }
  }

  /** Runs again a run that was made (GitHub's *Re-run all jobs*), refused after 30 days. */
  async rerun(id: string, options: { env?: Record<string, string> } = {}): Promise<RunResult> {
    this.assertRerunnable(id)
    return this.runWorkflow({ ...(this.runs.get(id) as RunRecord), env: options.env })
  }

  /** Every workflow of the default branch whose `on:` matches the event, each run as a new run. */
  async trigger(
    event: GitHubEvent,
    options: { env?: Record<string, string>; between?: (job: string, result: JobResult) => void | Promise<void> } = {},
  ): Promise<RunResult[]> {
    // pull_request_target runs the base branch's workflow files, at its last commit; workflow_run
    // the default branch's.
    const head =
      event.name === 'pull_request_target' ? (this.copy.tryRevParse(event.base) ?? this.copy.head()) : this.copy.head()
    const runs: RunResult[] = []
    for (const file of this.copy.list(head, '.github/workflows')) {
      const workflow: Yaml = parse(this.copy.show(head, file))
      const on = triggers(workflow)
      const github = this.contextFor(event, on, head)
      if (!github) continue
      runs.push(await this.runWorkflow({ workflow: file, github, ...options }))
    }
    return runs
  }

  private contextFor(event: GitHubEvent, on: Record<string, Yaml>, head: string): Record<string, Value> | undefined {
    const filter = on[event.name]
    if (filter === undefined) return undefined
    if (event.name === 'workflow_run') {
      const config = filter ?? {}
      if (!(config.workflows ?? []).includes(event.workflow)) return undefined
      if (config.types && !config.types.includes('completed')) return undefined
      if (!branchMatches(config.branches, event.headBranch)) return undefined
      return {
        event_name: 'workflow_run',
        ref: 'refs/heads/main',
        sha: head,
        actor: event.actor ?? 'operator',
        event: {
          workflow_run: {
            id: event.runId,
            name: event.workflow,
            conclusion: event.conclusion ?? 'success',
            event: event.event,
            head_branch: event.headBranch,
            head_sha: event.headSha,
            head_repository: { full_name: this.repository },
            actor: { login: event.actor ?? 'operator' },
            pull_requests: event.pullRequest ? [{ number: event.pullRequest }] : [],
          },
        },
      }
    }
    const config = filter ?? {}
    const types: string[] = config.types ?? ['opened', 'synchronize', 'reopened']
    if (!types.includes(event.action)) return undefined
    if (!branchMatches(config.branches, event.base)) return undefined
    return {
      event_name: event.name,
      // pull_request_target runs on the base branch; pull_request on the merge ref.
      ref: event.name === 'pull_request_target' ? `refs/heads/${event.base}` : `refs/pull/${event.number}/merge`,
      sha: event.name === 'pull_request_target' ? head : event.headSha,
      actor: event.author ?? 'author',
      event: {
        action: event.action,
        pull_request: {
          number: event.number,
          head: { repo: { full_name: this.repository }, ref: event.head, sha: event.headSha },
          base: { ref: event.base },
          user: { login: event.author ?? 'author' },
        },
      },
    }
  }

  /**
   * What GitHub does with jobs queued in the order given, while the first runs: each job's
   * `concurrency` group (its own, else its workflow's) admits one running and one waiting; a newer
   * one waiting replaces (cancels) the older, or cancels the running one with `cancel-in-progress`.
   */
  concurrency(queue: { workflow: string; job: string; github: Record<string, Value> }[]): string[] {
    const outcome: string[] = []
    const running = new Map<string, number>()
    const waiting = new Map<string, number>()
    queue.forEach((entry, index) => {
      const workflow: Yaml = parse(this.workflowText(entry.workflow, String(entry.github.sha ?? '')))
      const spec = workflow.jobs?.[entry.job]?.concurrency ?? workflow.concurrency
      if (spec === undefined) {
        outcome[index] = 'running'
        return
      }
      const contexts = { github: entry.github, inputs: {}, vars: this.vars }
      const group = interpolate(typeof spec === 'string' ? spec : String(spec.group), contexts, { success: true })
      const cancelInProgress =
        typeof spec === 'object' &&
        String(interpolate(String(spec['cancel-in-progress'] ?? false), contexts, { success: true })) === 'true'
      if (!running.has(group)) {
        running.set(group, index)
        outcome[index] = 'running'
        return
      }
      if (cancelInProgress) {
        outcome[running.get(group) as number] = 'cancelled'
        running.set(group, index)
        outcome[index] = 'running'
        return
      }
      if (waiting.has(group)) outcome[waiting.get(group) as number] = 'cancelled'
      waiting.set(group, index)
      outcome[index] = 'waiting'
    })
    return outcome
  }

  dispose(): void {
    this.artifacts.dispose()
  }
}
