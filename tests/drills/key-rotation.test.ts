// docs/operations/key-rotation.md, prove-delivery.md and rollback.md by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployToProduction, establishProduction, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'
import { syncBuildConfig } from './support/project'

const OLD_KEY = 'form-key-2025-a91c'
const NEW_KEY = 'form-key-2026-5d3e'
const NEWER_KEY = 'form-key-2026-b7f0'
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
/** The proof's own enquiry as the form service received it (delivered after the answer), by its check id. */
const delivered = async (proofOutput: string) => {
  const checkId = /check id:\s+(\S+)/.exec(proofOutput)?.[1]
  expect(checkId, proofOutput).toBeTruthy()
  const mine = () => drill.formPosts.find((s) => s.message.includes(`Test enquiry ${checkId}`))
  await expect.poll(mine, { timeout: 15_000 }).toBeTruthy()
  return mine()
}

describe('rotating the form key (docs/operations/key-rotation.md, prove-delivery.md and rollback.md)', () => {
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
    expect(await delivered(proof.output)).toMatchObject({ accessKey: NEW_KEY, accepted: true })
    drill.validKeys.delete(OLD_KEY)
  })

  it('after a rollback by hand: the good code serves with the new key, and the rolled-back build never serves again', async () => {
    const good = await serving(drill)
    // A release that goes wrong (and stops deliveries) reaches production, released as `wrangler deploy` would.
    drill.copy.edit('wrangler.toml', (toml) =>
      toml
        .replace('[vars]\n', '[vars]\nRELEASE_MARK = "broken-release"\n')
        .replace('CONTACT_DELIVERY = "form-service"', 'CONTACT_DELIVERY = "none"'),
    )
    const released = drill.copy.commit('A release that goes wrong')
    const { version: bad } = await drill.cf.control.release({
      worker: WORKER,
      message: `main ${released}`,
      vars: { ...BAD_RELEASE, CONTACT_DELIVERY: 'none' },
    })
    expect(await serving(drill)).toBe(bad)
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
    // Step 5's proof, its wrangler lines run in the first case: the smoke test waits for the version
    // serving, and the proof is sent to it.
    const proof = await drill.sh(
      `npm run smoke -- --url ${drill.workersDev} --version ${now} && npm run prove-delivery -- --url ${drill.workersDev}`,
    )
    expect(proof.code, proof.output).toBe(0)
    expect(await delivered(proof.output)).toMatchObject({ accessKey: NEWER_KEY, accepted: true })

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

  it('with Turnstile on, the proof is held, not delivered: prove-delivery says so and fails, so a held proof never passes for a working key', async () => {
    const before = (await drill.cf.state.worker(WORKER)).versions.length
    await drill.cf.control.release({
      worker: WORKER,
      message: 'Turnstile on',
      vars: { TURNSTILE_SITE_KEY: '1x00000000000000000000AA' },
    })
    const put = await drill.sh('npx wrangler secret put TURNSTILE_SECRET_KEY', {
      input: '1x0000000000000000000000000000000AA\n',
    })
    expect(put.code, put.output).toBe(0)
    expect((await drill.cf.state.worker(WORKER)).versions.length).toBe(before + 2)
    const sent = drill.formPosts.length
    const proof = await prove()
    expect(proof.code, proof.output).not.toBe(0)
    expect(proof.output).toMatch(/status:\s+held \(turnstile_missing\)/)
    expect(proof.output).toContain('prove-delivery: NOT PROVED: the site held the test enquiry')
    expect(drill.formPosts.length).toBe(sent)
  })
})
