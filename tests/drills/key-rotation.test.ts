/**
 * docs/operations.md § 7 "Rotate the form key", § 8 "Prove delivery" and § 9 "Rollback" (by hand
 * and from GitHub): a normal rotation; a release that goes wrong, rolled back by hand, and the key
 * rotated after that rollback as the runbook says (the serving code made the latest upload first);
 * a rollback whose serving version is a secret change (rotate, deploy, roll back), whose commit is
 * found from the newest `main <sha>` version before it; and a bad `secret put` rolled back, which
 * the next deploy would bring back unless the right value is put again as § 9 says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployToProduction, establishProduction, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'
import { syncBuildConfig } from './support/project'

const OLD_KEY = 'form-key-2025-a91c'
const NEW_KEY = 'form-key-2026-5d3e'
const NEWER_KEY = 'form-key-2026-b7f0'
const NEWEST_KEY = 'form-key-2026-c2d8'
const BAD_KEY = 'form-key-typo-0000'
/** The release that goes wrong is recognisable by a var only it carries (and answers 500 everywhere). */
const BAD_RELEASE = { RELEASE_MARK: 'broken-release' }

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
/** § 7 step 5: the version serving (as `deployments status` shows it) answers, then the proof goes out. */
const prove = async () =>
  drill.runbook('key-rotation/prove', { 'production url': drill.workersDev, 'version id': await serving(drill) })

describe('rotating the form key (docs/operations.md §§ 7–9)', () => {
  it('normal: the serving version is the latest upload, `secret put` serves the new key, the proof arrives with it', async () => {
    const check = await drill.runbook('key-rotation/check')
    expect(check.code, check.output).toBe(0)
    const before = await serving(drill)
    expect((await worker()).latestVersion?.id).toBe(before)

    drill.validKeys.add(NEW_KEY)
    const put = await drill.runbook('key-rotation/secret-put', {}, { input: `${NEW_KEY}\n` })
    expect(put.code, put.output).toBe(0)
    expect(put.output).not.toContain(NEW_KEY)
    const now = await serving(drill)
    expect(now).not.toBe(before)
    expect(await keyOf(now)).toBe(NEW_KEY)

    const proof = await prove()
    expect(proof.code, proof.output).toBe(0)
    expect(proof.output).toMatch(/Missing\s+nothing/)
    expect(drill.submissions.at(-1)).toMatchObject({ accessKey: NEW_KEY, accepted: true })
    drill.validKeys.delete(OLD_KEY)
  })

  it('after a rollback by hand: the good code serves with the new key, and the rolled-back build never serves again', async () => {
    const good = await serving(drill)
    // A release that goes wrong reaches production (its smoke test happened to pass: it fails later).
    // It also stops deliveries (CONTACT_DELIVERY "none"), which shows in the delivery set-up.
    drill.copy.edit('wrangler.toml', (toml) =>
      toml
        .replace('[vars]\n', '[vars]\nRELEASE_MARK = "broken-release"\n')
        .replace('CONTACT_DELIVERY = "form-service"', 'CONTACT_DELIVERY = "none"'),
    )
    syncBuildConfig(drill.copy)
    const release = await deployToProduction(drill, { sha: drill.copy.commit('A release that goes wrong') })
    expect(release.production.result, release.production.log).toBe('success')
    const bad = await serving(drill)
    await drill.cf.control.breakVersions({ vars: BAD_RELEASE })

    // § 9, by hand.
    const rollback = await drill.runbook('rollback/by-hand', { 'version id': good, why: 'Release c fails' })
    expect(rollback.code, rollback.output).toBe(0)
    expect(rollback.output).toContain(`answered by version ${good}`)
    expect(await serving(drill)).toBe(good)
    expect((await worker()).latestVersion?.id).toBe(bad)
    const rolledBackAt = Date.now()

    // The delivery set-up describes the version serving (form-service), not the latest upload (none).
    const setup = await drill.runbook('first-deploy/check')
    expect(setup.code, setup.output).toBe(0)
    expect(setup.output).toContain(`the version serving now, ${good}`)
    expect(setup.output).toMatch(/Requested \(CONTACT_DELIVERY\)\s+form-service/)

    // § 7 step 3: the serving version is not the latest upload; plain `secret put` refuses.
    drill.validKeys.add(NEWER_KEY)
    const refused = await drill.runbook('key-rotation/secret-put', {}, { input: `${NEWER_KEY}\n` })
    expect(refused.code).not.toBe(0)
    expect(refused.output).toContain("the latest version of your Worker isn't currently deployed")
    expect(await serving(drill)).toBe(good)

    // …so the serving code is made the latest upload: the bad change reverted on main and deployed.
    drill.copy.edit('wrangler.toml', (toml) =>
      toml
        .replace('RELEASE_MARK = "broken-release"\n', '')
        .replace('CONTACT_DELIVERY = "none"', 'CONTACT_DELIVERY = "form-service"'),
    )
    syncBuildConfig(drill.copy)
    const revert = await deployToProduction(drill, { sha: drill.copy.commit('Revert the release that went wrong') })
    expect(revert.production.result, revert.production.log).toBe('success')
    expect((await worker()).latestVersion?.id).toBe(await serving(drill))

    // Then step 4 works, and the proof goes out with the new key, from the good code.
    const put = await drill.runbook('key-rotation/secret-put', {}, { input: `${NEWER_KEY}\n` })
    expect(put.code, put.output).toBe(0)
    const now = await serving(drill)
    expect(await keyOf(now)).toBe(NEWER_KEY)
    expect((await versionOf(now))?.vars.RELEASE_MARK).toBeUndefined()
    const proof = await prove()
    expect(proof.code, proof.output).toBe(0)
    expect(drill.submissions.at(-1)).toMatchObject({ accessKey: NEWER_KEY, accepted: true })

    // Nothing deployed since the rollback, and nothing answered since, was the rolled-back build.
    const since = (await worker()).deployments.filter((d) => Date.parse(d.createdOn) >= rolledBackAt - 1000)
    for (const deployment of since) {
      for (const { id } of deployment.versions) expect((await versionOf(id))?.vars.RELEASE_MARK).toBeUndefined()
    }
    const answered = (await drill.cf.state.edgeRequests()).filter((r) => Date.parse(r.at) >= rolledBackAt + 4000)
    expect(answered.length).toBeGreaterThan(0)
    for (const request of answered) {
      if (request.servedBy.kind === 'version')
        expect((await versionOf(request.servedBy.id))?.vars.RELEASE_MARK).toBeUndefined()
    }
    await drill.cf.assertNoUnknownRequests()
  })

  it('rotate, deploy, roll back: the serving version is a secret change; the Rollback workflow finds its commit, whose Deploy run, re-run, makes it the latest upload', async () => {
    await drill.cf.control.clearBrokenVersions()
    // A deploy of commit A, a rotation (a version with no commit of its own), a deploy of commit B.
    drill.copy.edit('docs/operations.md', (text) => `${text}\n`)
    const a = drill.copy.commit('Commit A')
    const deployA = await deployToProduction(drill, { sha: a })
    expect(deployA.production.result, deployA.production.log).toBe('success')
    drill.validKeys.add(NEWEST_KEY)
    const put = await drill.runbook('key-rotation/secret-put', {}, { input: `${NEWEST_KEY}\n` })
    expect(put.code, put.output).toBe(0)
    const rotation = await serving(drill)
    drill.copy.edit('docs/operations.md', (text) => `${text}\n`)
    const deployB = await deployToProduction(drill, { sha: drill.copy.commit('Commit B') })
    expect(deployB.production.result, deployB.production.log).toBe('success')

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

    drill.copy.edit('docs/operations.md', (text) => `${text}\n`)
    const next = await deployToProduction(drill, { sha: drill.copy.commit('The next merge') })
    expect(next.production.result, next.production.log).toBe('success')
    expect(await keyOf(await serving(drill))).toBe(NEWEST_KEY)
    expect(drill.submissions.filter((s) => s.accessKey === BAD_KEY)).toEqual([])
  })
})
