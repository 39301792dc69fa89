/** Secrets (the pre-versions API: each change makes a version and deploys it) and static assets. */
import { randomUUID } from 'node:crypto'
import { ApiError, makeJwt, parseJson, parseMultipart, readJwt } from '../http.ts'
import type { Account, Worker } from '../model.ts'
import { A, ok, route, worker } from './routes.ts'

function refuseUnlessLatestDeployed(account: Account, target: Worker) {
  if (target.versions.length > 0 && !account.latestIsDeployed(target)) {
    // wrangler's throwIfLatestVersionNotDeployed turns this code into its "use versions secret put" advice.
    throw new ApiError(
      400,
      10215,
      "Secret edit failed. You attempted to modify a secret, but the latest version of your Worker isn't currently deployed.",
    )
  }
}

route('PUT', `${A}/workers/scripts/:name/secrets`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const secret = parseJson<{ name: string; text: string; type: string }>(body)
  if (secret.type !== 'secret_text') throw new ApiError(400, 10026, `Unsupported secret type ${secret.type}`)
  refuseUnlessLatestDeployed(ctx.account, target)
  const version = ctx.account.patchLatestVersion(
    target,
    { [secret.name]: { name: secret.name, type: 'secret_text', text: secret.text } },
    {},
    'secret',
  )
  ctx.account.createDeployment(target, { versions: [{ version_id: version.id, percentage: 100 }] }, 'secret')
  ctx.warm(version)
  return { name: secret.name, type: 'secret_text' }
})

route('DELETE', `${A}/workers/scripts/:name/secrets/:secret`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  const name = decodeURIComponent(params[1] ?? '')
  const latest = ctx.account.latestVersion(target)
  if (!latest?.bindings.some((b) => b.name === name && b.type === 'secret_text')) {
    throw new ApiError(404, 10056, `Secret ${name} not found`)
  }
  refuseUnlessLatestDeployed(ctx.account, target)
  const version = ctx.account.patchLatestVersion(target, { [name]: null }, {}, 'secret')
  ctx.account.createDeployment(target, { versions: [{ version_id: version.id, percentage: 100 }] }, 'secret')
  ctx.warm(version)
  return null
})

// Guess: the script's secrets are those of its latest version.
route('GET', `${A}/workers/scripts/:name/secrets`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  const latest = ctx.account.latestVersion(target)
  return (latest?.bindings ?? []).filter((b) => b.type === 'secret_text').map((b) => ({ name: b.name, type: b.type }))
})

route('POST', `${A}/workers/scripts/:name/assets-upload-session`, ({ ctx, params, body }) => {
  const request = parseJson<{ manifest?: Record<string, { hash: string; size: number }> }>(body)
  const manifest = request.manifest ?? {}
  const missing = [...new Set(Object.values(manifest).map((m) => m.hash))].filter((h) => !ctx.account.assetStore.has(h))
  if (missing.length === 0) {
    return { jwt: completion(ctx.account, manifest), buckets: [] }
  }
  const session = randomUUID()
  ctx.account.assetSessions.set(session, { manifest, pending: new Set(missing), workerName: params[0] ?? '' })
  const buckets: string[][] = []
  for (let i = 0; i < missing.length; i += 20) buckets.push(missing.slice(i, i + 20))
  return { jwt: makeJwt({ session, exp: Math.floor(Date.now() / 1000) + 3600 }), buckets }
})

route('POST', `${A}/workers/assets/upload`, async ({ ctx, req, body, url }) => {
  const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '')
  const session = ctx.account.assetSessions.get(String(readJwt(token)?.session ?? ''))
  if (!session) throw new ApiError(401, 10000, 'The upload token is not valid')
  if (url.searchParams.get('base64') !== 'true') throw new ApiError(400, 10026, 'Expected ?base64=true')
  const form = await parseMultipart(req, body)
  for (const [hash, value] of form.entries()) {
    if (typeof value === 'string') continue
    const content = Buffer.from(await value.text(), 'base64')
    const type = value.type === 'application/null' ? undefined : value.type
    ctx.account.assetStore.set(hash, { content, contentType: type })
    session.pending.delete(hash)
  }
  if (session.pending.size > 0) return ok({}, 202)
  return ok({ jwt: completion(ctx.account, session.manifest) }, 201)
})

function completion(account: Account, manifest: Record<string, { hash: string; size: number }>): string {
  const token = makeJwt({ completion: randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600 })
  account.assetCompletions.set(token, manifest)
  return token
}
