/** Workers: services, scripts, versions, deployments, settings, workers.dev and schedules. */
import { ApiError, parseJson } from '../http.ts'
import type { Binding, Version } from '../model.ts'
import { deploymentJson, handlers, publicBinding, serviceJson, versionJson, workerJson } from './json.ts'
import { A, paged, readUpload, route, worker } from './routes.ts'

// A Worker that does not exist is 10090 here (the services routes' code), 10007 on the scripts
// routes: wrangler's isWorkerNotFoundError accepts either.
route('GET', `${A}/workers/services/:name`, ({ ctx, params }) => {
  const name = decodeURIComponent(params[0] ?? '')
  if (!ctx.account.workers.has(name)) throw new ApiError(404, 10090, 'workers.api.error.service_not_found')
  return serviceJson(ctx.account, worker(ctx, params[0]))
})

route('GET', `${A}/workers/workers/:name`, ({ ctx, params }) => workerJson(ctx.account, worker(ctx, params[0])))

// First upload of a Worker, or an upload outside the versions API: creates a version and deploys it.
route('PUT', `${A}/workers/scripts/:name`, async ({ ctx, params, req, body }) => {
  const name = params[0] ?? ''
  const upload = await readUpload(req, body)
  const existing = ctx.account.workers.get(name)
  const target = existing ?? ctx.account.createWorker(name, false, false)
  let version: Version
  try {
    version = ctx.account.createVersion(target, { ...upload, triggeredBy: 'upload' })
  } catch (error) {
    if (!existing) ctx.account.workers.delete(name)
    throw error
  }
  ctx.account.createDeployment(target, { versions: [{ version_id: version.id, percentage: 100 }] }, 'upload')
  ctx.warm(version)
  return {
    id: name,
    tag: target.id,
    etag: target.etag,
    handlers: handlers(version),
    created_on: target.createdOn,
    modified_on: target.modifiedOn,
    usage_model: 'standard',
    compatibility_date: version.compatibilityDate,
    compatibility_flags: version.compatibilityFlags,
    deployment_id: version.id,
    has_assets: Boolean(version.assets),
    has_modules: true,
    startup_time_ms: 1,
  }
})

route('POST', `${A}/workers/scripts/:name/versions`, async ({ ctx, params, req, body }) => {
  const target = worker(ctx, params[0])
  const upload = await readUpload(req, body)
  const version = ctx.account.createVersion(target, { ...upload, triggeredBy: 'upload' })
  return { ...versionJson(target, version), startup_time_ms: 1 }
})

route('GET', `${A}/workers/scripts/:name/versions`, ({ ctx, params, url }) => {
  const target = worker(ctx, params[0])
  // Guess: every version is deployable (this Worker has no Durable Object migrations).
  const items = [...target.versions].reverse().map((v) => versionJson(target, v))
  if (url.searchParams.get('deployable') === null) {
    throw new ApiError(404, 7003, 'The stand-in serves the deployable versions list only (?deployable=true)')
  }
  return paged(ctx, url, items, (page) => ({ latest: items[0], items: page }))
})

route('GET', `${A}/workers/scripts/:name/versions/:id`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  return versionJson(target, ctx.account.version(target, params[1] ?? ''))
})

// `versions secret put/delete/bulk`: a new version copying the latest, not deployed.
route('PATCH', `${A}/workers/workers/:name/versions/latest`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const patch = parseJson<{ env?: Record<string, Binding | null>; annotations?: Record<string, string> }>(body)
  const version = ctx.account.patchLatestVersion(target, patch.env ?? {}, patch.annotations ?? {}, 'secret')
  return versionJson(target, version)
})

route('GET', `${A}/workers/scripts/:name/deployments`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  return { deployments: [...target.deployments].reverse().map(deploymentJson) }
})

route('POST', `${A}/workers/scripts/:name/deployments`, ({ ctx, params, body, url }) => {
  const target = worker(ctx, params[0])
  const request = parseJson<{
    versions: { version_id: string; percentage: number }[]
    annotations?: Record<string, string>
  }>(body)
  const deployment = ctx.account.createDeployment(target, {
    versions: request.versions,
    message: request.annotations?.['workers/message'],
    force: url.searchParams.get('force') === 'true',
  })
  for (const v of deployment.versions) ctx.warm(ctx.account.version(target, v.version_id))
  return deploymentJson(deployment)
})

// Guess: the versioned settings are the latest version's (wrangler reads `bindings` from them to
// decide whether a binding without an id can be inherited instead of provisioned).
route('GET', `${A}/workers/scripts/:name/settings`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  const latest = ctx.account.latestVersion(target)
  return {
    bindings: (latest?.bindings ?? []).map(publicBinding),
    compatibility_date: latest?.compatibilityDate,
    compatibility_flags: latest?.compatibilityFlags ?? [],
    logpush: Boolean(target.settings.logpush),
    observability: target.settings.observability ?? null,
    tail_consumers: target.settings.tail_consumers ?? null,
    usage_model: 'standard',
    limits: {},
    placement: {},
  }
})

route('PATCH', `${A}/workers/scripts/:name/script-settings`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  Object.assign(target.settings, parseJson(body))
  return target.settings
})

route('POST', `${A}/workers/scripts/:name/subdomain`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const request = parseJson<{ enabled?: boolean; previews_enabled?: boolean }>(body)
  if ((request.enabled || request.previews_enabled) && !ctx.account.options.subdomain) {
    throw new ApiError(400, 10007, 'Register a workers.dev subdomain first')
  }
  target.workersDev = Boolean(request.enabled)
  // Guess: previews_enabled left out follows enabled (Cloudflare's documented default).
  target.previewsEnabled = request.previews_enabled ?? target.workersDev
  return { enabled: target.workersDev, previews_enabled: target.previewsEnabled }
})

route('PUT', `${A}/workers/scripts/:name/schedules`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const crons = parseJson<{ cron: string }[]>(body)
  if (!Array.isArray(crons)) throw new ApiError(400, 10026, 'Expected a list of { cron }')
  const stamp = new Date().toISOString()
  target.schedules = crons.map(({ cron }) => ({ cron, created_on: stamp, modified_on: stamp }))
  return { schedules: target.schedules }
})
