// The production job's automatic rollback, and what a rollback does not bring back (rollback.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployToProduction, establishProduction, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'
import { DATABASES } from './support/names'

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

describe('a migration that breaks the schema (docs/operations/rollback.md)', () => {
  it('fails the smoke test on /api/health, rolls the code back, leaves the data to the operator, and gives the bookmark that the runbook’s restore brings back', async () => {
    const before = await serving(drill)
    drill.copy.write(
      'migrations/0099_rename_held_reason.sql',
      '-- destructive: a drill of a migration the serving code cannot read\nALTER TABLE enquiries RENAME COLUMN held_reason TO hold_reason;\n',
    )
    const sha = drill.copy.commit('A release whose migration renames a column the code reads')
    const { production } = await deployToProduction(drill, { sha })

    expect(production.result, production.log).toBe('failure')
    expect(production.log).toContain('GET /api/health answered 503')
    expect(await serving(drill)).toBe(before)
    const bookmark = /Time Travel bookmark was `([^`]+)`/.exec(production.summary)?.[1] as string
    expect(bookmark, production.summary).toMatch(/^[0-9a-f-]{20,}$/)
    expect(production.summary).toContain(`npx wrangler d1 time-travel restore ENQUIRIES --bookmark=${bookmark}`)
    expect(production.summary).toContain("Production's code was rolled back")
    expect(production.summary).toContain('This job never restores data itself')

    const restored = await drill.runbook('rollback/restore-data', { bookmark })
    expect(restored.code, restored.output).toBe(0)
    const columns = await drill.cf.state.query(DATABASES.production, "SELECT name FROM pragma_table_info('enquiries')")
    expect(columns.map((c) => c.name)).toContain('held_reason')
    const applied = await drill.cf.state.query(DATABASES.production, 'SELECT name FROM d1_migrations')
    expect(applied.map((m) => m.name)).not.toContain('0099_rename_held_reason.sql')
  })
})
