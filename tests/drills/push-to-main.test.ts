/**
 * docs/operations.md § 3 "What a push to main does" and § 5 "Staging": the CI run keeps the build,
 * the Deploy workflow deploys it to staging (through Access, with the service token), sends one
 * marked enquiry there and checks it was delivered, then deploys production and smoke-tests it.
 * With a version that fails in production, the automatic rollback leaves the previous version
 * serving and the run says so; when `wrangler deployments status` fails, nothing is deployed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ciRun, deployRun, establishProduction, serving, sha } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'

const KEY = 'production-key-3f9a1c'
const STAGING_KEY = 'staging-key-8b20d4'
const ACCESS = { clientId: 'ci-client.access', clientSecret: 'ci-secret-5e7f' }
const SECRETS = {
  STAGING_CONTACT_FORM_ACCESS_KEY: STAGING_KEY,
  CF_ACCESS_CLIENT_ID: ACCESS.clientId,
  CF_ACCESS_CLIENT_SECRET: ACCESS.clientSecret,
}

let drill: Drill
let first: string

beforeAll(async () => {
  drill = await startDrill()
  first = await establishProduction(drill, { key: KEY, sha: sha('a') })
  drill.validKeys.add(STAGING_KEY)
})
afterAll(async () => {
  await drill?.dispose()
})

/** Access in front of Previews (the stand-in guards every workers.dev host; the runbook's "Previews only" leaves production's public). */
const previewsBehindAccess = (on: boolean) => drill.cf.control.accessOnPreviews(on ? ACCESS : null)

describe('a push to main (docs/operations.md §§ 3, 5)', () => {
  it('deploys staging behind Access, delivers one marked enquiry there, then production, which passes its smoke test', async () => {
    const ci = await ciRun(drill, { runId: '101', sha: sha('b') })
    expect(ci.result, ci.log).toBe('success')

    previewsBehindAccess(true)
    const { staging, production } = await deployRun(drill, { runId: '101', sha: sha('b'), secrets: SECRETS }, () =>
      previewsBehindAccess(false),
    )
    expect(staging.result, staging.log).toBe('success')
    expect(staging.checkouts).toEqual([sha('b')])
    const [preview] = drill.cf.state.previews(WORKER).filter((p) => p.name === 'staging')
    expect(preview?.url).toBeDefined()
    expect(staging.log).toContain(`Staging: ${preview?.url}`)
    expect(staging.log).toContain('Staging delivered the marked enquiry')
    // One marked enquiry, delivered with staging's own key, stored in the previews' database only.
    expect(drill.submissions).toEqual([expect.objectContaining({ accessKey: STAGING_KEY, accepted: true })])
    expect(drill.submissions[0]?.message).toMatch(/^Test enquiry [0-9a-f]{8}, sent by `npm run prove-delivery`/)
    const previewRows = await drill.cf.state.query('akshara-labs-enquiries-preview', 'SELECT status FROM enquiries')
    expect(previewRows).toEqual([{ status: 'delivered' }])
    expect(await drill.cf.state.query('akshara-labs-enquiries', 'SELECT id FROM enquiries')).toEqual([])
    // Without the service token, Access stops the staging check: the run would have said so.
    previewsBehindAccess(true)
    const blocked = await drill.sh(`npm run smoke -- --url ${preview?.url}`)
    expect(blocked.code).toBe(1)
    expect(blocked.output).toContain('Cloudflare Access’s login')
    previewsBehindAccess(false)

    expect(production.result, production.log).toBe('success')
    const now = serving(drill)
    expect(now).not.toBe(first)
    expect(drill.cf.state.worker(WORKER).latestVersion?.message).toBe(`main ${sha('b')}`)
    expect(production.summary).toContain(`Production serves version \`${now}\``)
    expect(drill.cf.state.secretValue(WORKER, now, 'CONTACT_FORM_ACCESS_KEY')).toBe(KEY)
  })

  it('rolls back a version that fails its smoke test: the previous version serves, and the run says so', async () => {
    const good = serving(drill)
    expect((await ciRun(drill, { runId: '102', sha: sha('c') })).result).toBe('success')
    const { staging, production } = await deployRun(
      drill,
      { runId: '102', sha: sha('c'), secrets: SECRETS, smokeWait: 20 },
      () =>
        // Staging passed; this version fails in production only.
        drill.cf.control.breakVersions({ message: `main ${sha('c')}` }),
    )
    expect(staging.result, staging.log).toBe('success')
    expect(production.result, production.log).toBe('failure')

    const broken = drill.cf.state.worker(WORKER).latestVersion
    expect(broken?.message).toBe(`main ${sha('c')}`)
    expect(serving(drill)).toBe(good)
    const answer = await drill.cf.fetch(`${drill.workersDev}/api/health`)
    expect(answer.status).toBe(200)
    expect(drill.cf.state.servingAt(`${drill.workersDev}/`).ids).toEqual([{ id: good, percentage: 100 }])
    expect(production.log).toContain(`The smoke test failed for version ${broken?.id}`)
    expect(production.log).toContain(`Production was rolled back: ${good} serves 100% again and passes the smoke test`)
    expect(production.summary).toContain(`Version ${broken?.id} failed its smoke test and is not serving`)
    drill.cf.control.clearBrokenVersions()
  })

  it('deploys nothing when the version serving now cannot be read (no silent loss of the rollback target)', async () => {
    const before = serving(drill)
    const versions = drill.cf.state.worker(WORKER).versions.length
    expect((await ciRun(drill, { runId: '103', sha: sha('d') })).result).toBe('success')
    const { production } = await deployRun(drill, { runId: '103', sha: sha('d'), secrets: SECRETS }, () =>
      drill.cf.control.failNext('GET', /\/workers\/scripts\/akshara-labs-site\/deployments$/, {
        status: 500,
        code: 10013,
      }),
    )
    expect(production.result, production.log).toBe('failure')
    expect(production.log).toContain('Cannot tell which version serves production now')
    expect(drill.cf.state.worker(WORKER).versions).toHaveLength(versions)
    expect(serving(drill)).toBe(before)
    drill.cf.assertNoUnknownRequests()
  })
})
