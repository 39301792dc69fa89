// The stand-in Cloudflare is as strict as the platform: scoped tokens, failing versions, Access, unserved calls.
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { type Cloudflare, connectCloudflare } from '../support/cloudflare/index.ts'
import { runWrangler } from '../support/cloudflare/wrangler.ts'
import { TOKENS } from './support/drill'
import { DATABASES, WORKER } from './support/names'
import { type Copy, copyRepository } from './support/project'

const PRODUCTION_DB = DATABASES.production

let cf: Cloudflare
let project: Copy

const wrangler = (args: string[], options: { token?: string } = {}) =>
  runWrangler(cf, args, {
    cwd: project.dir,
    env: options.token ? { CLOUDFLARE_API_TOKEN: options.token } : {},
  })

beforeAll(async () => {
  const standin = inject('standin')
  cf = await connectCloudflare(standin, { tokens: TOKENS, propagationMs: 0, rolloutMs: 0 })
  await cf.control.adopt({ from: standin.template, worker: WORKER, secrets: {}, message: 'First deploy' })
  project = copyRepository()
}, 300_000)

afterAll(async () => {
  await cf?.stop()
  project?.remove()
})

describe('the stand-in Cloudflare is as strict as the platform', () => {
  test("scoped tokens: production's reaches its Worker and database only; the previews' neither", async () => {
    const call = (token: string, path: string, init: RequestInit = {}) =>
      fetch(`${cf.apiUrl}/accounts/${cf.accountId}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      })
    const production = cf.tokens.production as string
    const preview = cf.tokens.preview as string
    expect((await call(production, `/workers/scripts/${WORKER}/deployments`)).status).toBe(200)
    const refused = await call(preview, `/workers/scripts/${WORKER}/deployments`)
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { errors: { code: number }[] }).errors[0]?.code).toBe(10000)
    const db = (await cf.state.databases()).find((d) => d.name === PRODUCTION_DB)?.uuid
    const query = { method: 'POST', body: JSON.stringify({ sql: 'SELECT 1' }) }
    expect((await call(preview, `/d1/database/${db}/query`, query)).status).toBe(403)
    expect((await call(production, `/d1/database/${db}/query`, query)).status).toBe(200)
    // A scoped token cannot create a database, and lists only its own.
    expect((await call(production, '/d1/database', { method: 'POST', body: '{"name":"x"}' })).status).toBe(403)
    const listed = (await (await call(preview, '/d1/database')).json()) as { result: { name: string }[] }
    expect(listed.result.map((d) => d.name)).toEqual([DATABASES.previews, DATABASES.staging])
    // wrangler says so too.
    const run = await wrangler(['deployments', 'status', '--json'], { token: preview })
    expect(run.code).not.toBe(0)
    expect(`${run.stdout}${run.stderr}`).toContain('Authentication error')
    expect((await cf.state.apiRequests()).filter((r) => r.status === 403).map((r) => r.token)).toContain('preview')
  })

  test('a version made to fail answers 500 on the paths chosen; Access on a Worker covers all its URLs and nothing else', async () => {
    const url = cf.workersDevUrl(WORKER)
    const serving = (await cf.state.worker(WORKER)).deployment?.versions[0]?.id as string
    await cf.control.breakVersions({ ids: [serving], paths: /^\/$/ })
    try {
      expect((await cf.fetch(`${url}/`)).status).toBe(500)
      expect((await cf.fetch(`${url}/api/health`)).status).toBe(200)
    } finally {
      await cf.control.clearBrokenVersions()
    }
    const token = { clientId: 'ci.access', clientSecret: 'ci-secret' }
    await cf.control.protectWorker(WORKER, token)
    try {
      const refused = await cf.fetch(`${url}/api/health`)
      expect(refused.status).toBe(302)
      expect(String(refused.headers.location)).toMatch(
        /^https:\/\/stand-in\.cloudflareaccess\.com\/cdn-cgi\/access\/login\//,
      )
      const admitted = await cf.fetch(`${url}/api/health`, {
        headers: { 'CF-Access-Client-Id': token.clientId, 'CF-Access-Client-Secret': token.clientSecret },
      })
      expect(admitted.status).toBe(200)
    } finally {
      await cf.control.protectWorker(WORKER, null)
    }
    expect((await cf.fetch(`${url}/api/health`)).status).toBe(200)
  })

  test('an API call the stand-in does not serve fails, and is reported with its method and path', async () => {
    const path = `/accounts/${cf.accountId}/workers/scripts/${WORKER}/tails`
    const response = await fetch(`${cf.apiUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${cf.env.CLOUDFLARE_API_TOKEN}` },
    })
    expect(response.status).toBe(404)
    expect(((await response.json()) as { errors: { code: number }[] }).errors[0]?.code).toBe(7003)
    expect(await cf.unknownRequests()).toEqual([
      expect.objectContaining({ kind: 'api', method: 'POST', path: `/client/v4${path}` }),
    ])
    await expect(cf.assertNoUnknownRequests()).rejects.toThrow(`api POST /client/v4${path}`)
  })
})
