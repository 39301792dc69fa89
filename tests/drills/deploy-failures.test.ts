// docs/operations/github-setup.md ("What a push to main does"): what goes wrong in the production job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_TRIES } from '../../scripts/ci/lib'
import type { JobResult } from './support/actions'
import { deployToProduction, establishProduction, latestVersion, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'

const KEY = 'production-key-61d0e8'

let drill: Drill

beforeAll(async () => {
  drill = await startDrill()
  await establishProduction(drill, { key: KEY })
})
afterAll(async () => {
  await drill?.dispose()
})

/** An emergency deploy of a commit (CI run by hand on main): production only, no staging. */
async function emergencyDeploy(sha: string, options: { env?: Record<string, string> } = {}): Promise<JobResult> {
  const { production, deploy } = await deployToProduction(drill, { sha, env: options.env })
  expect(deploy.jobs.staging?.result).toBe('skipped')
  return production
}

const latest = () => latestVersion(drill)

describe('a production deploy that fails (docs/operations/github-setup.md)', () => {
  it('rolls back a version that went live before `wrangler deploy` failed (its Cron Triggers call refused) and fails its smoke test; the summary names what serves', async () => {
    const good = await serving(drill)
    const sha = drill.copy.commit(
      'A release that breaks the home page, deployed by a token without the schedules permission',
    )
    await drill.cf.control.breakVersions({ message: `main ${sha}`, paths: /^\/$/ })
    await drill.cf.control.failNext('PUT', /\/workers\/scripts\/akshara-labs-site\/schedules$/, {
      status: 403,
      code: 10000,
      message: 'Authentication error',
    })
    try {
      const production = await emergencyDeploy(sha, { env: { SMOKE_WAIT_SECONDS: '40' } })
      expect(production.result, production.log).toBe('failure')
      const broken = (await latest())?.id as string
      expect(production.log).toContain('wrangler deploy failed')
      expect(production.log).toContain(`failed after a new deployment went live: production serves ${broken} (100%)`)
      expect(production.log).toContain(`Version ${broken}, live after wrangler deploy failed, fails the smoke test`)
      expect(await serving(drill)).toBe(good)
      expect(production.summary).toContain(`Production was rolled back: ${good} serves 100% again`)
    } finally {
      await drill.cf.control.clearBrokenVersions()
    }
  })

  it('keeps a version that went live before `wrangler deploy` failed when it passes its smoke test, and says so', async () => {
    const sha = drill.copy.commit('A release deployed by a token without the schedules permission')
    await drill.cf.control.failNext('PUT', /\/workers\/scripts\/akshara-labs-site\/schedules$/, {
      status: 403,
      code: 10000,
      message: 'Authentication error',
    })
    const production = await emergencyDeploy(sha)
    expect(production.result, production.log).toBe('failure')
    const live = (await latest())?.id as string
    expect(await serving(drill)).toBe(live)
    expect(production.summary).toContain(
      `wrangler deploy failed after version ${live} went live. It passes the smoke test on ${drill.workersDev} and stays: production serves ${live} (100%)`,
    )
  })

  it('rolls back a version that fails once it answers, though old and new answered in turns during its rollout (the smoke test waited for 5 answers in a row from it)', async () => {
    const good = await serving(drill)
    const sha = drill.copy.commit('A release that breaks the home page')
    // For 8 s after it reaches the locations, the new version and the old one answer in turns: a
    // smoke test that judged once the new one had answered would get the old one's home page.
    await drill.cf.control.setRollout(8_000)
    await drill.cf.control.breakVersions({ message: `main ${sha}`, paths: /^\/$/ })
    try {
      const production = await emergencyDeploy(sha, { env: { SMOKE_WAIT_SECONDS: '40' } })
      expect(production.result, production.log).toBe('failure')
      const broken = await latest()
      expect(broken?.message).toMatch(new RegExp(`^main ${sha}`))
      expect(await serving(drill)).toBe(good)
      expect(production.log).toContain(`The smoke test failed for version ${broken?.id}`)
      expect(production.log).toContain('GET / answered 500')
      expect(production.log).toContain(
        `Production was rolled back: ${good} serves 100% again and passes the smoke test`,
      )
      expect(production.summary).toContain(`Version ${broken?.id} failed its smoke test and is not serving`)
    } finally {
      await drill.cf.control.clearBrokenVersions()
      await drill.cf.control.setRollout(2_000)
    }
  })

  it('leaves production as it was when a migration fails, and says which version serves', async () => {
    const before = await serving(drill)
    const versions = (await drill.cf.state.worker(WORKER)).versions.length
    drill.copy.write('migrations/0014_fails.sql', 'INSERT INTO no_such_table (id) VALUES (1);\n')
    const sha = drill.copy.commit('A release whose migration fails')
    const production = await emergencyDeploy(sha)
    expect(production.result, production.log).toBe('failure')
    expect((await drill.cf.state.worker(WORKER)).versions).toHaveLength(versions)
    expect(production.summary).toContain(
      `wrangler d1 migrations apply failed; production still serves ${before} (100%), as before the step.`,
    )
  })

  it('deploys nothing when the version serving now cannot be read (no silent loss of the rollback target)', async () => {
    const before = await serving(drill)
    const versions = (await drill.cf.state.worker(WORKER)).versions.length
    const sha = drill.copy.commit('A release deployed while the API is failing')
    // Failing on every try: one 5xx alone is tried again (scripts/ci/lib.ts, API_TRIES).
    for (let i = 0; i < API_TRIES; i++) {
      await drill.cf.control.failNext('GET', /\/workers\/scripts\/akshara-labs-site\/deployments$/, {
        status: 500,
        code: 10013,
        retryAfter: 1,
      })
    }
    const production = await emergencyDeploy(sha)
    expect(production.result, production.log).toBe('failure')
    expect(production.log).toContain(`try ${API_TRIES} of ${API_TRIES}`)
    expect(production.log).toContain('Cannot tell which version serves production now')
    expect((await drill.cf.state.worker(WORKER)).versions).toHaveLength(versions)
    expect(await serving(drill)).toBe(before)
    await drill.cf.assertNoUnknownRequests()
  })
})
