// docs/operations/rollback.md's Rollback workflow, § 4's purges and § 10's Smoke workflow, as the workflows write them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEPLOY, establishProduction, scheduledJob, serving } from './support/ci'
import { ACCESS, type Drill, PREVIEWS_WORKER, startDrill, WORKER } from './support/drill'
import { DATABASES } from './support/names'

let drill: Drill
/** The commit production's first version was built from. */
let first: string

beforeAll(async () => {
  drill = await startDrill()
  first = (await establishProduction(drill, { key: 'form-key-40aa', stagingKey: 'staging-key-77c1' })).sha
  await drill.cf.control.protectWorker(PREVIEWS_WORKER, ACCESS)
  // A later merge, released as `wrangler deploy` would (deploys are drilled through the workflows
  // in push-to-main and ci): what the Rollback workflow rolls back from.
  drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
  await drill.cf.control.release({ worker: WORKER, message: `main ${drill.copy.commit('A later merge')}` })
})
afterAll(async () => {
  await drill?.dispose()
})

const onMain = () => ({
  event_name: 'workflow_dispatch',
  ref: 'refs/heads/main',
  sha: drill.copy.head(),
  actor: 'ops-lead',
})

describe('rollback, purge, smoke from GitHub (docs/operations/previews.md, rollback.md and alerting.md)', () => {
  it('the Rollback workflow rolls back to the previous version, checks it serves, and names its commit, though the API answered 429 once', async () => {
    const before = await serving(drill)
    // Cloudflare's rate limit, met as the job reads what serves: it waits the Retry-After and goes on.
    await drill.cf.control.failNext('GET', /\/workers\/scripts\/akshara-labs-site\/deployments$/, {
      status: 429,
      code: 971,
      message: 'Please wait and consider throttling your request speed',
      retryAfter: 1,
    })
    const run = await drill.job({
      workflow: '.github/workflows/rollback.yml',
      job: 'rollback',
      github: { ...onMain(), run_id: drill.actions.newRunId() },
      inputs: { version: '', reason: 'Rehearsal' },
    })
    expect(run.result, run.log).toBe('success')
    expect(run.log).toContain(
      '429 Please wait and consider throttling your request speed [code 971]; trying again in 1 s',
    )
    const now = await serving(drill)
    expect(now).not.toBe(before)
    expect(run.log).toContain(`Rolled back: ${now} serves 100% again and passes the smoke test`)
    expect(run.summary).toContain(`The version serving was built from commit ${first}.`)
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
    const run = await scheduledJob(drill, '.github/workflows/purge-previews.yml', 'purge')
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
    const run = await scheduledJob(drill, '.github/workflows/smoke.yml', 'smoke')
    expect(run.result, run.log).toBe('success')
    expect(run.log).toContain(`smoke: ${drill.workersDev} serves the home page and /api/health is ok`)
    await drill.cf.assertNoUnknownRequests()
  })
})
