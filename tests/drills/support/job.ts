/**
 * One job of a workflow, as GitHub Actions runs it: each `run:` step as written (bash -eo pipefail,
 * in the checkout, with the workflow's, job's and step's `env`, `${{ }}` evaluated, `GITHUB_OUTPUT`,
 * `GITHUB_ENV` and `GITHUB_STEP_SUMMARY` honoured), each `if:` evaluated, later steps skipped after
 * a failure unless their condition says otherwise. A job sees the repository's secrets and
 * variables, plus its environment's when its ref may deploy there. The actions the workflows use are
 * played: checkout (a fresh tree of the commit), setup-node (Node 24 is on PATH), upload-artifact,
 * download-artifact; any other fails the step. A step that is exactly `npm ci [--ignore-scripts]`
 * is played too (node_modules is this checkout's); any other install fails it.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'
import type { Actions, Environment } from './actions'
import { branchMatches, type Yaml } from './events'
import { condition, interpolate, type Status, type Value } from './expressions'

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
export async function runJob(actions: Actions, options: JobOptions): Promise<JobResult> {
  const github: Record<string, Value> = { token: actions.token, repository: actions.repository, ...options.github }
  const workflow: Yaml = parse(actions.workflowText(options.workflow, String(github.sha ?? ''), options.workspace))
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
    secrets: { ...actions.secrets, ...environment?.secrets, GITHUB_TOKEN: actions.token },
    inputs: options.inputs ?? {},
    needs: options.needs ?? {},
    steps: stepsContext,
    runner: { temp: runnerTemp, os: 'Linux' },
    env,
    vars: { ...actions.vars, ...environment?.vars },
    job: {},
    matrix: {},
  })

  const needsOk = Object.values(options.needs ?? {}).every((n) => n.result === 'success')
  if (!condition(job.if, contexts({}), { success: needsOk })) return finish({ ...result, result: 'skipped' })

  if (environmentName !== undefined) {
    const name = interpolate(String(environmentName), contexts({}), { success: true })
    environment = actions.environments[name]
    const branch = String(github.ref ?? '').replace(/^refs\/heads\//, '')
    if (environment && !branchMatches(environment.branches, branch)) {
      result.log = `Branch "${branch}" is not allowed to deploy to ${name} due to environment protection rules.\n`
      return finish({ ...result, result: 'failure' })
    }
  }

  const baseEnv = (): Record<string, string> => {
    const status: Status = { success: true }
    const env: Record<string, string> = {
      ...actions.machine,
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
          workspace = actions.copy.checkout(ref, { history: withs['fetch-depth'] === '0' })
          result.checkouts.push(ref)
          output = `Checked out ${ref}\n`
        } else if (action === 'actions/setup-node') {
          // Node 24 is first on PATH in the drill's environment.
        } else if (action === 'actions/download-artifact') {
          const runId = withs['run-id'] || String(github.run_id)
          const destination = resolve(workspace, withs.path || '.')
          actions.artifacts.download(runId, withs.name as string, destination, actions.day)
          output = `Downloaded ${withs.name} (run ${runId}) to ${destination}\n`
        } else if (action === 'actions/upload-artifact') {
          const paths = (withs.path ?? '')
            .split('\n')
            .map((p) => p.trim())
            .filter(Boolean)
          actions.artifacts.upload(String(github.run_id), withs.name as string, workspace, paths, {
            overwrite: withs.overwrite === 'true',
            day: actions.day,
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
