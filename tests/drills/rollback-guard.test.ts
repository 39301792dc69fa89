/**
 * docs/operations/github-setup.md ("What a push to main does") and rollback.md: the production job's
 * automatic rollback goes back to the version it recorded when it started only while production
 * still serves the job's own deployment. An operator who rolled back (or changed a secret) while
 * the job waited on its smoke test keeps their change, and the run says who made it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployToProduction, establishProduction, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'

const KEY = 'production-key-2c7e90'
const OPERATOR_MESSAGE = 'Operator: the release is broken'

let drill: Drill
let first: string

beforeAll(async () => {
  drill = await startDrill()
  first = (await establishProduction(drill, { key: KEY })).version
})
afterAll(async () => {
  await drill?.dispose()
})

const deployments = async () => (await drill.cf.state.worker(WORKER)).deployments

describe('the automatic rollback meets an operator’s newer deployment (docs/operations/github-setup.md and rollback.md)', () => {
  it('leaves the operator’s rollback in place, rolls nothing back itself, and names who changed production', async () => {
    const sha = drill.copy.commit('A release whose every page fails')
    await drill.cf.control.breakVersions({ message: `main ${sha}` })
    try {
      // The smoke test waits for the new version to answer; it never does.
      const job = deployToProduction(drill, { sha, env: { SMOKE_WAIT_SECONDS: '30' } })
      await expect.poll(async () => (await serving(drill)) !== first, { timeout: 240_000, interval: 500 }).toBe(true)
      const rolledBack = await drill.sh(`npx wrangler rollback ${first} --message "${OPERATOR_MESSAGE}"`)
      expect(rolledBack.code, rolledBack.output).toBe(0)
      const count = (await deployments()).length
      const { production } = await job

      expect(production.result, production.log).toBe('failure')
      expect(production.summary).toContain("Not rolling back: production no longer serves this job's deployment")
      expect(production.summary).toContain(`rollback: "${OPERATOR_MESSAGE}"`)
      expect(production.summary).toMatch(/made \S+ by \S+@/)
      expect(await serving(drill)).toBe(first)
      expect(await deployments()).toHaveLength(count)
    } finally {
      await drill.cf.control.clearBrokenVersions()
    }
  })
})
