// docs/operations/first-deploy.md, on an empty account.
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

describe('first deploy on an empty account (docs/operations/first-deploy.md)', () => {
  it('refuses the sample values before anything is built or uploaded', async () => {
    const check = await drill.runbook('first-deploy/go-live')
    expect(check.code).toBe(1)
    expect(check.output).toContain('Go-live check: refusing to deploy to production')
    expect(check.output).toMatch(/app\/site\.ts:\d+\s+url: https:\/\/aksharalabs\.example/)
    expect(check.output).toContain('[[d1_databases]] ENQUIRIES database_id is not set')

    const deploy = await drill.runbook('first-deploy/deploy', {}, { input: `${KEY}\n` })
    expect(deploy.code).not.toBe(0)
    expect(deploy.output).toContain('Go-live check: refusing to deploy to production')
    expect(await drill.cf.state.workers()).toEqual([])
    expect(existsSync(join(drill.env.HOME as string, 'akshara.secrets'))).toBe(false)
  })

  it("creates the three databases (production's, the previews', staging's) and the first two's tables", async () => {
    const ids = await drill.createDatabases()
    expect(ids.production).not.toBe(ids.previews)
    expect((await drill.cf.state.databases()).map((d) => d.name).sort()).toEqual([
      'akshara-labs-enquiries',
      'akshara-labs-enquiries-preview',
      'akshara-labs-enquiries-staging',
    ])
    const run = await drill.runbook('first-deploy/migrations')
    expect(run.code, run.output).toBe(0)
    for (const db of ['akshara-labs-enquiries', 'akshara-labs-enquiries-preview']) {
      expect(await tables(db)).toEqual(expect.arrayContaining(['enquiries', 'enquiry_attempts']))
    }
    // Staging's is migrated by the staging job, with main's migrations only (docs/operations/staging.md).
    expect(await tables('akshara-labs-enquiries-staging')).toEqual([])
  })

  it('deploys with real values and the key from a private file, which is gone afterwards', async () => {
    drill.goLive()
    const expectedConfig = JSON.parse(drill.copy.read('dist/server/wrangler.json'))
    expect((await drill.runbook('first-deploy/go-live')).code).toBe(0)

    const deploy = await drill.runbook('first-deploy/deploy', {}, { input: `${KEY}\n` })
    expect(deploy.code, deploy.output).toBe(0)
    expect(deploy.output).not.toContain(KEY)
    expect(existsSync(join(drill.env.HOME as string, 'akshara.secrets'))).toBe(false)

    const worker = await drill.cf.state.worker(WORKER)
    expect(worker.deployment?.versions).toEqual([{ id: worker.latestVersion?.id, percentage: 100 }])
    expect(
      await drill.cf.state.secretValue(WORKER, worker.latestVersion?.id as string, 'CONTACT_FORM_ACCESS_KEY'),
    ).toBe(KEY)
    // Once it serves, `npm run deploy` refuses and points at CI's emergency deploy (§ 1, step 5).
    const again = await drill.sh('npm run deploy')
    expect(again.code, again.output).toBe(1)
    expect(again.output).toContain(`Production already serves ${worker.latestVersion?.id} (100%)`)
    expect(again.output).toContain('Actions → CI → Run workflow on main')
    expect((await drill.cf.state.worker(WORKER)).latestVersion?.id).toBe(worker.latestVersion?.id)
    // No version of production has a URL of its own (preview_urls = false).
    expect(worker.previewsEnabled).toBe(false)
    expect(worker.latestVersion?.previewUrl).toBeUndefined()

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

    const version = (await drill.cf.state.worker(WORKER)).deployment?.versions[0]?.id as string
    const prove = await drill.runbook('key-rotation/prove', {
      'production url': drill.workersDev,
      'version id': version,
    })
    expect(prove.code, prove.output).toBe(0)
    // Delivered after the answer that stored it: waited for, not read at once.
    await expect
      .poll(() => drill.formPosts, { timeout: 15_000 })
      .toEqual([expect.objectContaining({ accessKey: KEY, accepted: true })])
    // …and recorded as delivered once the form service has answered.
    await expect
      .poll(() => drill.cf.state.query<{ status: string }>('akshara-labs-enquiries', 'SELECT status FROM enquiries'), {
        timeout: 15_000,
      })
      .toEqual([{ status: 'delivered' }])
    await drill.cf.assertNoUnknownRequests()
  })

  it('the checks and steps the runbook writes inline run as written: curl, the remote lists, the Turnstile secret put and deleted', async () => {
    const domain = new URL(drill.workersDev).host
    // § 10 step 4: is the site up, and what waits.
    const health = await drill.sh(`curl -s https://${domain}/api/health`)
    expect(health.code, health.output).toBe(0)
    const serving = (await drill.cf.state.worker(WORKER)).deployment?.versions[0]?.id
    expect(JSON.parse(health.output)).toEqual({ ok: true, version: serving })
    const pending = await drill.sh('npm run enquiries -- --remote --status pending')
    expect(pending.code, pending.output).toBe(0)
    expect(pending.output).toContain('No enquiries with status pending in')
    // § 14 step 7: the desk answers 403 while the Access variables are unset.
    const desk = await drill.sh(`curl -i https://${domain}/admin`)
    expect(desk.code, desk.output).toBe(0)
    expect(desk.output).toMatch(/^HTTP\/[\d.]+ 403/m)
    // § 15 step 5: the held list.
    const held = await drill.sh('npm run enquiries -- --remote --status held')
    expect(held.code, held.output).toBe(0)
    expect(held.output).toContain('No enquiries with status held in')
    // § 15 step 2 (the secret first: Turnstile stays off without the site key), then step 7.
    const put = await drill.sh('npx wrangler secret put TURNSTILE_SECRET_KEY', { input: 'turnstile-secret-0a1b\n' })
    expect(put.code, put.output).toBe(0)
    const worker = await drill.cf.state.worker(WORKER)
    const latest = worker.latestVersion?.id as string
    expect(worker.deployment?.versions).toEqual([{ id: latest, percentage: 100 }])
    expect(await drill.cf.state.secretValue(WORKER, latest, 'TURNSTILE_SECRET_KEY')).toBe('turnstile-secret-0a1b')
    const setup = await drill.sh('npm run enquiries -- setup --remote')
    expect(setup.output).toMatch(/Turnstile[^\n]*off/)
    const removed = await drill.sh('npx wrangler secret delete TURNSTILE_SECRET_KEY', { input: 'y\n' })
    expect(removed.code, removed.output).toBe(0)
    const after = (await drill.cf.state.worker(WORKER)).latestVersion?.id as string
    expect(after).not.toBe(latest)
    expect(await drill.cf.state.secretValue(WORKER, after, 'TURNSTILE_SECRET_KEY')).toBeUndefined()
    expect(await drill.cf.state.secretValue(WORKER, after, 'CONTACT_FORM_ACCESS_KEY')).toBe(KEY)
    await drill.cf.assertNoUnknownRequests()
  })
})
