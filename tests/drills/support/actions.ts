/**
 * Runs a job of one of this repository's workflow files the way GitHub Actions would, on this
 * machine: each `run:` step as written (bash -eo pipefail, in the checkout, with the workflow's,
 * job's and step's `env`, `${{ }}` expressions evaluated, `GITHUB_OUTPUT`, `GITHUB_ENV` and
 * `GITHUB_STEP_SUMMARY` honoured), each `if:` evaluated, steps skipped after a failure unless
 * their condition says otherwise. So a drill runs the workflow, not a copy of its commands.
 *
 * The actions the workflows use are played by the drill: `actions/checkout` (the drill's copy of the
 * repository is the checkout; the ref it asks for is recorded), `actions/setup-node` (Node 24 is on
 * PATH), `actions/upload-artifact` and `actions/download-artifact` (an artifact store per run; an
 * upload of a name already in the run fails with GitHub's 409 unless `overwrite: true`, as
 * upload-artifact's action.yml documents). Any other action fails the step, naming it.
 * A step that is exactly `npm ci` or `npm ci --ignore-scripts` is played too: the copy's
 * node_modules is this checkout's own, installed once (scripts/ci/ run on it exactly as on a
 * runner that installed without install scripts; the project's own check of that is in
 * docs/operations.md § 3). Any other install in a step fails it, so a drill never reinstalls.
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { parse } from 'yaml'
import { condition, interpolate, type Status, type Value } from './expressions'

/** The artifacts of workflow runs, by run id, as GitHub keeps them. */
export class ArtifactStore {
  private readonly root = mkdtempSync(join(tmpdir(), 'drill-artifacts-'))
  private readonly runs = new Map<string, Map<string, string>>()

  /** Uploads `paths` (relative to `cwd`) as `name` in `runId`; throws GitHub's 409 on a duplicate name without overwrite. */
  upload(runId: string, name: string, cwd: string, paths: string[], overwrite: boolean): void {
    const run = this.runs.get(runId) ?? new Map<string, string>()
    this.runs.set(runId, run)
    if (run.has(name) && !overwrite) {
      throw new Error(
        'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run',
      )
    }
    const dir = join(this.root, `${runId}-${name}-${Date.now()}`)
    for (const path of paths) {
      if (!existsSync(join(cwd, path))) throw new Error(`upload-artifact: no files found at ${path}`)
      cpSync(join(cwd, path), join(dir, path), { recursive: true })
    }
    run.set(name, dir)
  }

  /** Puts a directory in as an artifact (the drill's stand-in for a run it does not execute). */
  put(runId: string, name: string, dir: string): void {
    const run = this.runs.get(runId) ?? new Map<string, string>()
    this.runs.set(runId, run)
    run.set(name, dir)
  }

  download(runId: string, name: string, destination: string): void {
    const dir = this.runs.get(runId)?.get(name)
    if (!dir) throw new Error(`Unable to download artifact(s): Artifact not found for name: ${name} (run ${runId})`)
    mkdirSync(destination, { recursive: true })
    cpSync(dir, destination, { recursive: true })
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true })
  }
}

export interface JobOptions {
  /** The workflow file, e.g. `.github/workflows/deploy.yml` (read from `workspace`). */
  workflow: string
  job: string
  /** The checkout: the drill's copy of the repository. */
  workspace: string
  /** The `github` context: event, event_name, ref, sha, repository, actor, run_id… */
  github: Record<string, Value>
  secrets?: Record<string, string>
  inputs?: Record<string, Value>
  needs?: Record<string, { result: string; outputs?: Record<string, string> }>
  /** The machine's environment for every step (PATH, the stand-in's proxy, …). */
  env: Record<string, string>
  artifacts: ArtifactStore
  /** Run only the steps from the one with this name on (the earlier ones are the drill's business). */
  fromStep?: string
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
  /** The refs `actions/checkout` was asked for. */
  checkouts: string[]
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

/** Runs one job of a workflow, as written. */
export async function runJob(options: JobOptions): Promise<JobResult> {
  const workflow: Yaml = parse(readFileSync(join(options.workspace, options.workflow), 'utf8'))
  const job: Yaml = workflow.jobs?.[options.job]
  if (!job) throw new Error(`${options.workflow} has no job ${options.job}`)
  const runnerTemp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
  const files = mkdtempSync(join(tmpdir(), 'runner-files-'))
  const stepsContext: Record<string, { outcome: string; conclusion: string; outputs: Record<string, string> }> = {}
  const extraEnv: Record<string, string> = {}
  const github: Record<string, Value> = { token: 'ghs_drill_token', ...options.github }
  const contexts = (env: Record<string, string>): Record<string, Value> => ({
    github,
    secrets: { GITHUB_TOKEN: github.token, ...options.secrets },
    inputs: options.inputs ?? {},
    needs: options.needs ?? {},
    steps: stepsContext,
    runner: { temp: runnerTemp, os: 'Linux' },
    env,
    vars: {},
    job: {},
    matrix: {},
  })
  const result: JobResult = { result: 'success', steps: [], log: '', summary: '', checkouts: [] }

  const needsOk = Object.values(options.needs ?? {}).every((n) => n.result === 'success')
  if (!condition(job.if, contexts({}), { success: needsOk })) {
    rmSync(runnerTemp, { recursive: true, force: true })
    return { ...result, result: 'skipped' }
  }

  const baseEnv = (): Record<string, string> => {
    const status: Status = { success: true }
    const env: Record<string, string> = {
      ...options.env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      RUNNER_TEMP: runnerTemp,
      GITHUB_WORKSPACE: options.workspace,
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
        if (action === 'actions/checkout') result.checkouts.push(withs.ref ?? '(the event’s default)')
        else if (action === 'actions/setup-node') {
          // Node 24 is first on PATH in the drill's environment.
        } else if (action === 'actions/download-artifact') {
          const runId = withs['run-id'] || String(github.run_id)
          const destination = resolve(options.workspace, withs.path || '.')
          options.artifacts.download(runId, withs.name as string, destination)
          output = `Downloaded ${withs.name} (run ${runId}) to ${destination}\n`
        } else if (action === 'actions/upload-artifact') {
          const paths = (withs.path ?? '')
            .split('\n')
            .map((p) => p.trim())
            .filter(Boolean)
          options.artifacts.upload(
            String(github.run_id),
            withs.name as string,
            options.workspace,
            paths,
            withs.overwrite === 'true',
          )
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
          step['working-directory'] ? join(options.workspace, step['working-directory']) : options.workspace,
          {
            ...env,
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
      stepsContext[step.id] = { outcome, conclusion: ok || step['continue-on-error'] ? 'success' : 'failure', outputs }
    if (!ok && !step['continue-on-error']) jobOk = false
  }
  rmSync(runnerTemp, { recursive: true, force: true })
  rmSync(files, { recursive: true, force: true })
  result.result = jobOk ? 'success' : 'failure'
  return result
}

/** The name of a workflow file (`name:`), as `workflow_run: workflows:` refers to it. */
export function workflowName(workspace: string, file: string): string {
  return parse(readFileSync(join(workspace, file), 'utf8')).name ?? basename(file)
}
