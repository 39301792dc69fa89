/**
 * docs/operations.md, section 1 "First deploy", on an empty account: the go-live check refuses the
 * sample values (nothing is uploaded); with real values in the copy it creates the databases,
 * migrates both, deploys with the key read into a private file, and the smoke test, the delivery
 * set-up and a proof of delivery pass.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Drill, startDrill, WORKER } from './support/drill'

const KEY = 'first-key-6c1d0b7e94a2'
let drill: Drill

beforeAll(async () => {
  drill = await startDrill()
  drill.validKeys.add(KEY)
})
afterAll(async () => {
  await drill?.dispose()
})

const tables = async (database: string) =>
  (
    await drill.cf.state.query<{ name: string }>(
      database,
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
  ).map((row) => row.name)

describe('first deploy on an empty account (docs/operations.md § 1)', () => {
  it('refuses the sample values before anything is built or uploaded', async () => {
    const check = await drill.runbook('first-deploy/go-live')
    expect(check.code).toBe(1)
    expect(check.output).toContain('Go-live check: refusing to deploy to production')
    expect(check.output).toMatch(/app\/site\.ts:\d+\s+url: https:\/\/aksharalabs\.example/)
    expect(check.output).toContain('[[d1_databases]] ENQUIRIES database_id is not set')

    const deploy = await drill.runbook('first-deploy/deploy', {}, { input: `${KEY}\n` })
    expect(deploy.code).not.toBe(0)
    expect(deploy.output).toContain('Go-live check: refusing to deploy to production')
    expect(drill.cf.state.workers()).toEqual([])
    expect(existsSync(join(drill.env.HOME as string, 'akshara.secrets'))).toBe(false)
  })

  it('creates both databases and their tables', async () => {
    const ids = await drill.createDatabases()
    expect(ids.production).not.toBe(ids.previews)
    const run = await drill.runbook('first-deploy/migrations')
    expect(run.code, run.output).toBe(0)
    for (const db of ['akshara-labs-enquiries', 'akshara-labs-enquiries-preview']) {
      expect(await tables(db)).toEqual(expect.arrayContaining(['enquiries', 'enquiry_attempts']))
    }
  })

  it('deploys with real values and the key from a private file, which is gone afterwards', async () => {
    drill.goLive()
    const expectedConfig = JSON.parse(drill.copy.read('dist/server/wrangler.json'))
    expect((await drill.runbook('first-deploy/go-live')).code).toBe(0)

    const deploy = await drill.runbook('first-deploy/deploy', {}, { input: `${KEY}\n` })
    expect(deploy.code, deploy.output).toBe(0)
    expect(deploy.output).not.toContain(KEY)
    expect(existsSync(join(drill.env.HOME as string, 'akshara.secrets'))).toBe(false)

    const worker = drill.cf.state.worker(WORKER)
    expect(worker.deployment?.versions).toEqual([{ id: worker.latestVersion?.id, percentage: 100 }])
    expect(drill.cf.state.secretValue(WORKER, worker.latestVersion?.id as string, 'CONTACT_FORM_ACCESS_KEY')).toBe(KEY)

    // `npm run deploy` built the copy: its configuration is what the other drills write in place of a build.
    const built = JSON.parse(readFileSync(join(drill.copy.dir, 'dist/server/wrangler.json'), 'utf8'))
    for (const key of ['configPath', 'userConfigPath']) {
      delete built[key]
      delete expectedConfig[key]
    }
    expect(built).toEqual(expectedConfig)
  })

  it('passes the smoke test on `url`, shows the serving version’s set-up, and delivers a proof', async () => {
    const check = await drill.runbook('first-deploy/check')
    expect(check.code, check.output).toBe(0)
    expect(check.output).toContain(`smoke: ${drill.workersDev} serves the home page and /api/health is ok`)
    expect(check.output).toMatch(/Delivery in effect\s+form-service/)
    expect(check.output).toMatch(/Missing\s+nothing/)

    const prove = await drill.runbook('key-rotation/prove', { 'production url': drill.workersDev })
    expect(prove.code, prove.output).toBe(0)
    expect(drill.submissions).toEqual([expect.objectContaining({ accessKey: KEY, accepted: true })])
    const rows = await drill.cf.state.query<{ status: string }>(
      'akshara-labs-enquiries',
      'SELECT status FROM enquiries',
    )
    expect(rows).toEqual([{ status: 'delivered' }])
    drill.cf.assertNoUnknownRequests()
  })
})
