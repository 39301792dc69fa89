/**
 * A repository's GitHub Actions, played on this machine so a drill runs the workflows, not a copy
 * of their commands: its secrets, variables and environments (with their deployment branches), its
 * runs (each kept with its context, re-runnable as it was for 30 days:
 * https://docs.github.com/en/actions/managing-workflow-runs/re-running-workflows-and-jobs) and
 * their artifacts (artifacts.ts). A run's workflow file is the one at its `github.sha`. Jobs run as
 * job.ts says; events (events.ts) run every workflow of the default branch whose `on:` matches.
 * Days pass when the drill says (`advanceDays`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ArtifactStore } from './artifacts'
import { concurrencyOutcome, eventContext, type GitHubEvent, triggers, type Yaml } from './events'
import type { Value } from './expressions'
import { type JobOptions, type JobResult, runJob } from './job'
import type { Copy } from './project'

export type { GitHubEvent } from './events'
export { branchMatches } from './events'
export { type JobOptions, type JobResult, runBash, type StepRecord } from './job'

/** GitHub keeps a run re-runnable for 30 days. */
export const RERUN_DAYS = 30

export interface Environment {
  secrets: Record<string, string>
  vars?: Record<string, string>
  /** Deployment branches (*Selected branches*); undefined: any branch may deploy. */
  branches?: string[]
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
  readonly copy: Copy
  readonly machine: Record<string, string>
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

  workflowText(file: string, sha: string | undefined, workspace?: string): string {
    if (workspace) return readFileSync(join(workspace, file), 'utf8')
    return this.copy.show(sha ?? this.copy.head(), file)
  }

  /** Runs one job of a workflow, as written (job.ts). */
  runJob(options: JobOptions): Promise<JobResult> {
    return runJob(this, options)
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
      const github = eventContext(event, on, head, this.repository)
      if (!github) continue
      runs.push(await this.runWorkflow({ workflow: file, github, ...options }))
    }
    return runs
  }

  /** What GitHub does with jobs queued in the order given (events.ts). */
  concurrency(queue: { workflow: string; job: string; github: Record<string, Value> }[]): string[] {
    return concurrencyOutcome(queue, (file, sha) => parse(this.workflowText(file, sha)), this.vars)
  }

  dispose(): void {
    this.artifacts.dispose()
  }
}
