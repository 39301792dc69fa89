/**
 * docs/operations.md § 3 (re-running a run, with its own commit and within GitHub's limits; the
 * emergency deploy; a rollback never cancelled by a queued deploy), § 9 (the Rollback workflow),
 * § 4 (the previews' and staging's databases purged on a schedule) and § 10 (the Smoke workflow),
 * each run as its workflow file writes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobResult } from './support/actions'
import { ciCompleted, ciRun, DEPLOY, deployOf, establishProduction, pushToMain, serving } from './support/ci'
import { ACCESS, type Drill, PREVIEWS_WORKER, startDrill, WORKER } from './support/drill'
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

const latest = async () => (await drill.cf.state.worker(WORKER)).latestVersion
const onMain = () => ({
  event_name: 'workflow_dispatch',
  ref: 'refs/heads/main',
  sha: drill.copy.head(),
  actor: 'ops-lead',
})
const tables = async (database: string) =>
  (await drill.cf.state.query<{ name: string }>(database, "SELECT name FROM sqlite_master WHERE type = 'table'")).map(
    (r) => r.name,
  )

describe('re-running a run, the emergency deploy, rollback, purge, smoke (docs/operations.md §§ 3, 4, 9, 10)', () => {
  let first: { sha: string; ci: string; deploy: string }

  it('re-running CI replaces its build (no 409); re-running Deploy deploys that build again, with its own commit’s scripts and migrations', async () => {
    drill.copy.edit('docs/operations.md', (text) => `${text}\n`)
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
    expect(production.log).toContain('No migrations to apply!')
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

  it('the Rollback workflow rolls back to the previous version, checks it serves, and names its commit', async () => {
    const before = await serving(drill)
    const run = await drill.job({
      workflow: '.github/workflows/rollback.yml',
      job: 'rollback',
      github: { ...onMain(), run_id: drill.actions.newRunId() },
      inputs: { version: '', reason: 'Rehearsal' },
    })
    expect(run.result, run.log).toBe('success')
    const now = await serving(drill)
    expect(now).not.toBe(before)
    expect(run.log).toContain(`Rolled back: ${now} serves 100% again and passes the smoke test`)
    expect(run.summary).toContain(`The version serving was built from commit ${first.sha}.`)
    expect((await drill.cf.state.worker(WORKER)).deployment?.message).toBe('Rollback by ops-lead: Rehearsal')
  })

  it('a rollback waiting behind a running deploy is not cancelled by the next deploy queued', () => {
    const deploy = {
      workflow: DEPLOY,
      job: 'production',
      github: { event_name: 'workflow_run', ref: 'refs/heads/main', sha: drill.copy.head() },
    }
    const rollback = { workflow: '.github/workflows/rollback.yml', job: 'rollback', github: onMain() }
    const outcome = drill.actions.concurrency([deploy, rollback, deploy])
    expect(outcome[1]).not.toBe('cancelled')
    expect(outcome).toEqual(['running', 'running', 'waiting'])
  })

  it('the scheduled purge empties the previews’ and staging’s databases of enquiries past 30 days, and never touches production', async () => {
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString()
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString()
    const insert = (id: string, at: string) =>
      `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, subject, message, status) VALUES ('${id}', '${id}', '${at}', 'Test', 't@example.com', 'general', 'm', 'delivered')`
    for (const db of Object.values(DATABASES)) {
      await drill.cf.state.query(db, insert('old-1', old))
      await drill.cf.state.query(db, insert('new-1', recent))
      await drill.cf.state.query(
        db,
        "INSERT INTO enquiry_attempts VALUES ('old-1', 1, '2026-01-01T00:00:00.000Z', 'form-service', 'delivered', NULL)",
      )
    }
    const run = await drill.job({
      workflow: '.github/workflows/purge-previews.yml',
      job: 'purge',
      github: {
        event_name: 'schedule',
        ref: 'refs/heads/main',
        sha: drill.copy.head(),
        run_id: drill.actions.newRunId(),
      },
    })
    expect(run.result, run.log).toBe('success')
    for (const db of [DATABASES.previews, DATABASES.staging]) {
      expect(run.log).toMatch(new RegExp(`${db}: purged 1 enquiry received before`))
      const kept = await drill.cf.state.query(db, "SELECT id FROM enquiries WHERE id IN ('old-1', 'new-1')")
      expect(kept).toEqual([{ id: 'new-1' }])
      expect(
        await drill.cf.state.query(db, "SELECT enquiry_id FROM enquiry_attempts WHERE enquiry_id = 'old-1'"),
      ).toEqual([])
    }
    expect(
      await drill.cf.state.query(
        DATABASES.production,
        "SELECT id FROM enquiries WHERE id IN ('old-1', 'new-1') ORDER BY id",
      ),
    ).toEqual([{ id: 'new-1' }, { id: 'old-1' }])
  })

  it('the Smoke workflow checks production', async () => {
    const run = await drill.job({
      workflow: '.github/workflows/smoke.yml',
      job: 'smoke',
      github: {
        event_name: 'schedule',
        ref: 'refs/heads/main',
        sha: drill.copy.head(),
        run_id: drill.actions.newRunId(),
      },
    })
    expect(run.result, run.log).toBe('success')
    expect(run.log).toContain(`smoke: ${drill.workersDev} serves the home page and /api/health is ok`)
    await drill.cf.assertNoUnknownRequests()
  })
})
