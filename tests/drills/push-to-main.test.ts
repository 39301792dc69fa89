// docs/operations/github-setup.md ("What a push to main does") and staging.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { establishProduction, latestVersion, pushToMain, serving } from './support/ci'
import { ACCESS, type Drill, PREVIEWS_WORKER, STAGING_WORKER, startDrill, WORKER } from './support/drill'
import { DATABASES } from './support/names'

const KEY = 'production-key-3f9a1c'
const STAGING_KEY = 'staging-key-8b20d4'

let drill: Drill
let first: string

beforeAll(async () => {
  drill = await startDrill()
  first = (await establishProduction(drill, { key: KEY, stagingKey: STAGING_KEY })).version
})
afterAll(async () => {
  await drill?.dispose()
})

const latest = () => latestVersion(drill)

describe('a push to main (docs/operations/github-setup.md and staging.md)', () => {
  it('deploys staging (its own database, behind Access), delivers one marked enquiry there, then production, smoke-tested once the new version answers', async () => {
    drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
    const sha = drill.copy.commit('A change to the runbook')
    const calls = (await drill.cf.state.apiRequests()).length
    let afterStaging = 0
    const { staging, production } = await pushToMain(drill, {
      sha,
      between: async (job) => {
        if (job === 'staging') afterStaging = (await drill.cf.state.apiRequests()).length
      },
    })
    expect(staging.result, staging.log).toBe('success')
    expect(staging.checkouts).toEqual([sha])
    // Staging lives in a Worker of its own, apart from pull requests' Previews.
    expect((await drill.cf.state.previews(PREVIEWS_WORKER)).map((p) => p.name)).not.toContain('staging')
    const preview = (await drill.cf.state.previews(STAGING_WORKER)).find((p) => p.name === 'staging')
    expect(preview?.url).toBeDefined()
    expect(staging.log).toContain(`Staging: ${preview?.url}`)
    expect(staging.log).toContain('Staging delivered the marked enquiry')
    // One marked enquiry, delivered with staging's own key, stored in staging's database only.
    expect(drill.formPosts).toEqual([expect.objectContaining({ accessKey: STAGING_KEY, accepted: true })])
    expect(drill.formPosts[0]?.message).toMatch(/^Test enquiry [0-9a-f]{8}, sent by `npm run prove-delivery`/)
    expect(await drill.cf.state.query(DATABASES.staging, 'SELECT status FROM enquiries')).toEqual([
      { status: 'delivered' },
    ])
    expect(await drill.cf.state.query(DATABASES.previews, 'SELECT id FROM enquiries')).toEqual([])
    expect(await drill.cf.state.query(DATABASES.production, 'SELECT id FROM enquiries')).toEqual([])
    // Without the service token Access stops anyone at staging's URL, and the smoke test at its first request.
    const seen = (await drill.cf.state.edgeRequests()).length
    const blocked = await drill.sh(`npm run smoke -- --url ${preview?.url}`)
    expect(blocked.code).toBe(1)
    expect(blocked.output).toContain('Cloudflare Access’s login')
    const tried = (await drill.cf.state.edgeRequests()).slice(seen)
    expect(tried.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual(['GET /api/health 302'])
    // The preview jobs' service token does not open staging: its Access application is its own.
    const withPreviewToken = await drill.sh(`npm run smoke -- --url ${preview?.url}`, {
      env: { CF_ACCESS_CLIENT_ID: ACCESS.clientId, CF_ACCESS_CLIENT_SECRET: ACCESS.clientSecret },
    })
    expect(withPreviewToken.code).toBe(1)
    expect(withPreviewToken.output).toContain('Cloudflare Access’s login')

    expect(production.result, production.log).toBe('success')
    const now = await serving(drill)
    expect(now).not.toBe(first)
    expect((await latest())?.message).toBe(`main ${sha}`)
    expect(production.summary).toContain(`Production serves version \`${now}\``)
    expect(production.log).toContain(`answered by version ${now}`)
    expect(await drill.cf.state.secretValue(WORKER, now, 'CONTACT_FORM_ACCESS_KEY')).toBe(KEY)
    // Each job used its own token only: the previews' for staging, production's for production.
    const all = await drill.cf.state.apiRequests()
    expect(new Set(all.slice(calls, afterStaging).map((r) => r.token))).toEqual(new Set(['preview']))
    expect(new Set(all.slice(afterStaging).map((r) => r.token))).toEqual(new Set(['production']))
    // No version of production has a URL of its own: not the new one, not the first.
    for (const id of [now, first]) {
      const answer = await drill.cf.fetch(
        `https://${id.slice(0, 8)}-${WORKER}.${drill.cf.subdomain}.workers.dev/api/health`,
      )
      expect(answer.status).toBe(404)
    }
  })

  it('stops at staging when the form service refuses server-side posts (Web3Forms’ free plan), saying why in the summary; production is not deployed', async () => {
    const before = await serving(drill)
    const sent = drill.formPosts.length
    // Staging's key belongs to a form-service account on the free plan: every post from a Worker is refused.
    drill.formServicePlan = 'free'
    try {
      drill.copy.edit('docs/operations/README.md', (text) => `${text}\n`)
      const sha = drill.copy.commit('Another change to the runbook')
      const { staging, production } = await pushToMain(drill, { sha })
      expect(staging.result, staging.log).toBe('failure')
      expect(production.result).toBe('skipped')
      expect(drill.formPosts.slice(sent)).toEqual([
        expect.objectContaining({ accessKey: STAGING_KEY, accepted: false }),
      ])
      expect(staging.summary).toContain('Staging failed; production is not deployed.')
      expect(staging.summary).toContain('did not deliver it through form-service')
      expect(staging.summary).toContain('last cause upstream_refused')
      expect(staging.summary).toContain('set CONTACT_FORM_SERVER_SIDE')
      expect(staging.summary).toContain('CONTACT_DELIVERY = "email"')
      expect(await serving(drill)).toBe(before)
    } finally {
      drill.formServicePlan = 'paid'
    }
  })

  it.each([
    [
      'edits a migration main has: CI’s append-only check fails against the previous main',
      () =>
        drill.copy.edit('migrations/0008_notices.sql', (sql) => `${sql}\nALTER TABLE notices ADD COLUMN draft TEXT;\n`),
      ['0008_notices.sql is changed, but main has already applied it under this name'],
    ],
    [
      'adds a migration dropping a column without the marker line',
      () => drill.copy.write('migrations/0099_drop_owner.sql', 'ALTER TABLE enquiries DROP COLUMN owner;\n'),
      ['0099_drop_owner.sql drops a column', '-- destructive: <why>'],
    ],
  ] as const)('deploys nothing from a push to main that %s', async (what, change, words) => {
    const before = await serving(drill)
    const calls = (await drill.cf.state.apiRequests()).length
    change()
    const { migrations, staging, production } = await pushToMain(drill, { sha: drill.copy.commit(what) })
    expect(migrations?.result, migrations?.log).toBe('failure')
    for (const line of words) expect(migrations?.log).toContain(line)
    expect(staging.result).toBe('skipped')
    expect(production.result).toBe('skipped')
    expect((await drill.cf.state.apiRequests()).length).toBe(calls)
    expect(await serving(drill)).toBe(before)
  })
})
