// docs/operations/rollback.md, past a secret change (from GitHub and by hand).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployToProduction, establishProduction, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'

const OLD_KEY = 'form-key-2025-4e0b'
const NEWEST_KEY = 'form-key-2026-c2d8'
const BAD_KEY = 'form-key-typo-0000'

let drill: Drill
beforeAll(async () => {
  drill = await startDrill()
  await establishProduction(drill, { key: OLD_KEY })
})
afterAll(async () => {
  await drill?.dispose()
})

const worker = () => drill.cf.state.worker(WORKER)
const versionOf = async (id: string) => (await worker()).versions.find((v) => v.id === id)
const keyOf = (id: string) => drill.cf.state.secretValue(WORKER, id, 'CONTACT_FORM_ACCESS_KEY')

describe('rolling back past a secret change (docs/operations/rollback.md)', () => {
  it('rotate, deploy, roll back: the serving version is a secret change; the Rollback workflow finds its commit, whose Deploy run, re-run, makes it the latest upload', async () => {
    // A deploy of commit A, a rotation (a version with no commit of its own), a deploy of commit B.
    drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
    const a = drill.copy.commit('Commit A')
    const deployA = await deployToProduction(drill, { sha: a })
    expect(deployA.production.result, deployA.production.log).toBe('success')
    drill.validKeys.add(NEWEST_KEY)
    const put = await drill.runbook('key-rotation/secret-put', {}, { input: `${NEWEST_KEY}\n` })
    expect(put.code, put.output).toBe(0)
    const rotation = await serving(drill)
    // Commit B released as `wrangler deploy` would: the Rollback workflow's starting point.
    drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
    await drill.cf.control.release({ worker: WORKER, message: `main ${drill.copy.commit('Commit B')}` })

    const rollback = await drill.job({
      workflow: '.github/workflows/rollback.yml',
      job: 'rollback',
      github: {
        event_name: 'workflow_dispatch',
        ref: 'refs/heads/main',
        sha: drill.copy.head(),
        actor: 'ops-lead',
        run_id: drill.actions.newRunId(),
      },
      inputs: { version: '', reason: 'Commit B fails' },
    })
    expect(rollback.result, rollback.log).toBe('success')
    expect(await serving(drill)).toBe(rotation)
    expect((await versionOf(rotation))?.message).toBeUndefined()
    const fromA = (await worker()).versions.find((v) => v.message?.startsWith(`main ${a}`))?.id
    expect(rollback.summary).toContain(`The version serving is a secret change of ${fromA}, built from commit ${a}.`)
    expect(rollback.summary).toContain(`re-run the Deploy run of commit ${a}`)

    // Step 3, as the summary says: re-run commit A's Deploy run.
    const rerun = await drill.actions.rerun(deployA.deploy.id)
    expect(rerun.jobs.production?.result, rerun.jobs.production?.log).toBe('success')
    const now = await serving(drill)
    expect((await worker()).latestVersion?.id).toBe(now)
    expect((await versionOf(now))?.message).toMatch(new RegExp(`^main ${a}`))
    expect(await keyOf(now)).toBe(NEWEST_KEY)
  })

  it('a bad `secret put` rolled back comes back with the next deploy unless the right value is put again (§ 9)', async () => {
    const good = await serving(drill)
    const put = await drill.runbook('key-rotation/secret-put', {}, { input: `${BAD_KEY}\n` })
    expect(put.code, put.output).toBe(0)
    const bad = await serving(drill)
    expect(await keyOf(bad)).toBe(BAD_KEY)
    const rollback = await drill.runbook('rollback/by-hand', { 'version id': good, why: 'Wrong key' })
    expect(rollback.code, rollback.output).toBe(0)
    expect(await keyOf(await serving(drill))).toBe(NEWEST_KEY)
    // The latest upload still holds the bad key: § 9's step puts the right one back before any deploy.
    const fix = await drill.runbook(
      'rollback/bad-secret',
      { 'secret name': 'CONTACT_FORM_ACCESS_KEY' },
      {
        input: `${NEWEST_KEY}\n`,
      },
    )
    expect(fix.code, fix.output).toBe(0)
    expect(await keyOf((await worker()).latestVersion?.id as string)).toBe(NEWEST_KEY)

    drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
    const next = await deployToProduction(drill, { sha: drill.copy.commit('The next merge') })
    expect(next.production.result, next.production.log).toBe('success')
    expect(await keyOf(await serving(drill))).toBe(NEWEST_KEY)
    expect(drill.formPosts.filter((s) => s.accessKey === BAD_KEY)).toEqual([])
  })
})
