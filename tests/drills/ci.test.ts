/**
 * docs/operations.md § 3 (re-running a run, the emergency deploy), § 9 (the Rollback workflow),
 * § 4 (the previews database purged on a schedule) and § 10 (the Smoke workflow), each run as its
 * workflow file writes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ciRun,
  deployRun,
  environmentSecrets,
  establishProduction,
  REPOSITORY,
  serving,
  sha,
  workflowRun,
} from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'

const STAGING_KEY = 'staging-key-77c1'
let drill: Drill

beforeAll(async () => {
  drill = await startDrill()
  await establishProduction(drill, { key: 'form-key-40aa', sha: sha('a') })
  drill.validKeys.add(STAGING_KEY)
})
afterAll(async () => {
  await drill?.dispose()
})

const latest = () => drill.cf.state.worker(WORKER).latestVersion
const onMain = (runId: string) => ({
  event_name: 'workflow_dispatch',
  ref: 'refs/heads/main',
  sha: sha('f'),
  repository: REPOSITORY,
  run_id: runId,
  actor: 'ops-lead',
})

describe('re-running a run, the emergency deploy, rollback, purge, smoke (docs/operations.md §§ 3, 4, 9, 10)', () => {
  it('re-running CI replaces its build (no 409) and re-running Deploy deploys that build again', async () => {
    expect((await ciRun(drill, { runId: '501', sha: sha('b') })).result).toBe('success')
    const again = await ciRun(drill, { runId: '501', sha: sha('b') })
    expect(again.result, again.log).toBe('success')

    const once = await deployRun(drill, {
      runId: '501',
      sha: sha('b'),
      secrets: { STAGING_CONTACT_FORM_ACCESS_KEY: STAGING_KEY },
    })
    expect(once.staging.result, once.staging.log).toBe('success')
    expect(once.production.result, once.production.log).toBe('success')
    const firstRun = serving(drill)
    const rerun = await drill.job({
      workflow: '.github/workflows/deploy.yml',
      job: 'production',
      github: workflowRun({ runId: '501', headSha: sha('b') }),
      secrets: environmentSecrets(drill),
      needs: { staging: { result: 'success' } },
    })
    expect(rerun.result, rerun.log).toBe('success')
    expect(rerun.log).toContain(`Serving now: ${firstRun} (100%)`)
    expect(rerun.log).toContain('No migrations to apply!')
    expect(serving(drill)).not.toBe(firstRun)
    expect(latest()?.message).toBe(`main ${sha('b')}`)
  })

  it('the emergency deploy (CI run by hand on main) goes to production without staging, with its reason', async () => {
    const ci = await ciRun(drill, {
      runId: '502',
      sha: sha('e'),
      dispatch: { reason: 'Security fix', actor: 'ops-lead' },
    })
    expect(ci.result, ci.log).toBe('success')
    const run = await deployRun(drill, { runId: '502', sha: sha('e'), event: 'workflow_dispatch' })
    expect(run.staging.result).toBe('skipped')
    expect(run.production.result, run.production.log).toBe('success')
    expect(latest()?.message).toBe('Emergency deploy by ops-lead: Security fix')
    expect(serving(drill)).toBe(latest()?.id)

    // Run by hand from another branch, nothing is deployed.
    const elsewhere = workflowRun({ runId: '503', headSha: sha('9'), event: 'workflow_dispatch', headBranch: 'hotfix' })
    for (const job of ['staging', 'production']) {
      const skipped = await drill.job({
        workflow: '.github/workflows/deploy.yml',
        job,
        github: elsewhere,
        secrets: environmentSecrets(drill),
        needs: { staging: { result: 'skipped' } },
      })
      expect(skipped.result).toBe('skipped')
    }
  })

  it('the Rollback workflow rolls back to the previous version and checks it serves', async () => {
    const before = serving(drill)
    const run = await drill.job({
      workflow: '.github/workflows/rollback.yml',
      job: 'rollback',
      github: onMain('504'),
      inputs: { version: '', reason: 'Rehearsal' },
      secrets: environmentSecrets(drill),
    })
    expect(run.result, run.log).toBe('success')
    const now = serving(drill)
    expect(now).not.toBe(before)
    expect(run.log).toContain(`Rolled back: ${now} serves 100% again and passes the smoke test`)
    expect(drill.cf.state.worker(WORKER).deployment?.message).toBe('Rollback by ops-lead: Rehearsal')
  })

  it('the scheduled purge empties the previews database of enquiries past 30 days, and never touches production', async () => {
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString()
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString()
    const insert = (id: string, at: string) =>
      `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, subject, message, status) VALUES ('${id}', '${id}', '${at}', 'Test', 't@example.com', 'general', 'm', 'delivered')`
    for (const db of ['akshara-labs-enquiries-preview', 'akshara-labs-enquiries']) {
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
      github: { event_name: 'schedule', ref: 'refs/heads/main', sha: sha('f'), repository: REPOSITORY, run_id: '505' },
      secrets: environmentSecrets(drill),
    })
    expect(run.result, run.log).toBe('success')
    expect(run.log).toMatch(/akshara-labs-enquiries-preview: purged 1 enquiry received before/)
    const kept = await drill.cf.state.query(
      'akshara-labs-enquiries-preview',
      "SELECT id FROM enquiries WHERE id IN ('old-1', 'new-1')",
    )
    expect(kept).toEqual([{ id: 'new-1' }])
    expect(
      await drill.cf.state.query(
        'akshara-labs-enquiries-preview',
        "SELECT enquiry_id FROM enquiry_attempts WHERE enquiry_id = 'old-1'",
      ),
    ).toEqual([])
    expect(await drill.cf.state.query('akshara-labs-enquiries', 'SELECT id FROM enquiries ORDER BY id')).toEqual([
      { id: 'new-1' },
      { id: 'old-1' },
    ])
  })

  it('the Smoke workflow checks production', async () => {
    const run = await drill.job({
      workflow: '.github/workflows/smoke.yml',
      job: 'smoke',
      github: { event_name: 'schedule', ref: 'refs/heads/main', sha: sha('f'), repository: REPOSITORY, run_id: '506' },
    })
    expect(run.result, run.log).toBe('success')
    expect(run.log).toContain(`smoke: ${drill.workersDev} serves the home page and /api/health is ok`)
    drill.cf.assertNoUnknownRequests()
  })
})
