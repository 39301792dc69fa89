// docs/operations/github-setup.md: re-running a run, and the emergency deploy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobResult } from './support/actions'
import {
  ciCompleted,
  ciRun,
  DEPLOY,
  deployOf,
  establishProduction,
  latestVersion,
  pushToMain,
  serving,
} from './support/ci'
import { ACCESS, type Drill, PREVIEWS_WORKER, startDrill } from './support/drill'
import { DATABASES } from './support/names'

let drill: Drill

beforeAll(async () => {
  drill = await startDrill()
  await establishProduction(drill, { key: 'form-key-40aa', stagingKey: 'staging-key-77c1' })
  await drill.cf.control.protectWorker(PREVIEWS_WORKER, ACCESS)
})
afterAll(async () => {
  await drill?.dispose()
})

const latest = () => latestVersion(drill)
const tables = async (database: string) =>
  (await drill.cf.state.query<{ name: string }>(database, "SELECT name FROM sqlite_master WHERE type = 'table'")).map(
    (r) => r.name,
  )

describe('re-running a run, the emergency deploy (docs/operations/github-setup.md)', () => {
  let first: { sha: string; ci: string; deploy: string }

  it('re-running CI replaces its build (no 409); re-running Deploy deploys that build again, with its own commit’s scripts and migrations', async () => {
    drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
    const sha = drill.copy.commit('A change to the runbook')
    const push = await pushToMain(drill, { sha })
    expect(push.production.result, push.production.log).toBe('success')
    first = { sha, ci: push.ci, deploy: push.deploy.id }
    const again = await ciRun(drill, { sha, rerun: push.ci })
    expect(again.result.result, again.result.log).toBe('success')

    // main moves on: a new migration is merged (its CI and Deploy have not run yet).
    drill.copy.write('migrations/0009_rerun_probe.sql', 'CREATE TABLE rerun_probe (id INTEGER PRIMARY KEY);\n')
    drill.copy.commit('A migration on main')

    const servingBefore = await serving(drill)
    const rerun = await drill.actions.rerun(first.deploy)
    const production = rerun.jobs.production as JobResult
    expect(production.result, production.log).toBe('success')
    expect(production.checkouts).toEqual([sha])
    expect(production.log).toContain(`Serving now: ${servingBefore} (100%)`)
    // Every migration of its commit is recorded: read through the API, wrangler is not started.
    expect(production.log).toContain(
      'No migrations to apply: the ENQUIRIES database records every file of migrations/.',
    )
    // The re-run ran its own commit's migrations, not main's newer one.
    expect(await tables(DATABASES.production)).not.toContain('rerun_probe')
    expect(await serving(drill)).not.toBe(servingBefore)
    expect((await latest())?.message).toBe(`main ${sha}`)
  })

  it('a re-run after the build artifact expired fails; re-running the CI run (within 30 days) deploys the commit again; after 30 days neither can', async () => {
    drill.actions.advanceDays(15)
    const expired = await drill.actions.rerun(first.deploy)
    const staging = expired.jobs.staging as JobResult
    expect(staging.result).toBe('failure')
    expect(staging.log).toContain('Artifact not found for name: build')
    expect(staging.log).toContain('it expired after 14 days')
    expect(expired.jobs.production?.result).toBe('skipped')

    const before = await serving(drill)
    const ci = await ciRun(drill, { sha: first.sha, rerun: first.ci })
    expect(ci.result.result, ci.result.log).toBe('success')
    const deploy = deployOf(await ciCompleted(drill, { id: first.ci, sha: first.sha }))
    expect(deploy.jobs.production?.result, deploy.jobs.production?.log).toBe('success')
    expect(await serving(drill)).not.toBe(before)
    expect((await latest())?.message).toBe(`main ${first.sha}`)

    drill.actions.advanceDays(16)
    await expect(drill.actions.rerun(first.deploy)).rejects.toThrow('cannot be re-run')
    await expect(ciRun(drill, { sha: first.sha, rerun: first.ci })).rejects.toThrow('cannot be re-run')
  })

  it('the emergency deploy (CI run by hand on main) goes to production without staging, its message naming the commit and the reason', async () => {
    const sha = drill.copy.head()
    const ci = await ciRun(drill, { sha, dispatch: { reason: 'Security fix', actor: 'ops-lead' } })
    expect(ci.result.result, ci.result.log).toBe('success')
    const run = deployOf(await ciCompleted(drill, { id: ci.id, sha, event: 'workflow_dispatch' }))
    expect(run.jobs.staging?.result).toBe('skipped')
    expect(run.jobs.production?.result, run.jobs.production?.log).toBe('success')
    expect((await latest())?.message).toBe(`main ${sha} (emergency deploy by ops-lead: Security fix)`)
    expect(await serving(drill)).toBe((await latest())?.id)

    // A completed run of another branch deploys nothing.
    const elsewhere = await drill.actions.trigger({
      name: 'workflow_run',
      workflow: 'CI',
      runId: drill.actions.newRunId(),
      event: 'workflow_dispatch',
      headBranch: 'hotfix',
      headSha: sha,
    })
    expect(elsewhere.filter((r) => r.workflow === DEPLOY)).toEqual([])
  })
})
