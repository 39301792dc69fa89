/**
 * The stand-in's REST API (`/client/v4/…`): the calls wrangler 4.151 makes for the commands in
 * this folder's README, with the shapes its code reads. Anything else answers 404 (code 7003, as
 * Cloudflare does for a path it cannot route) and is recorded as unknown.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { runQuery } from './d1.ts'
import {
  ApiError,
  envelope,
  errorEnvelope,
  makeJwt,
  parseJson,
  parseMultipart,
  readBody,
  readJwt,
  sendJson,
} from './http.ts'
import type {
  Account,
  Binding,
  DatabaseState,
  Deployment,
  Preview,
  PreviewDeployment,
  StoredModule,
  TokenScope,
  Version,
  Worker,
} from './model.ts'

export interface ApiRequestRecord {
  at: string
  method: string
  path: string
  status: number
  /** Which of the account's tokens made the call (its scope's name). */
  token?: string
  /** Set when the stand-in does not serve the path. */
  unknown?: boolean
  error?: string
}

export interface ApiContext {
  account: Account
  /** The account's API tokens and what each may do. */
  tokens: Map<string, TokenScope>
  /** Runs `work` with the D1 binding of a database (Miniflare's, the one the served Workers use). */
  withD1<T>(id: string, work: (db: D1Database) => Promise<T>): Promise<T>
  /** A build now serves somewhere: start it ahead of its first request. */
  warm(build: Version | PreviewDeployment): void
  /** Base of this server's own URLs (for the D1 import upload URL). */
  baseUrl(): string
  /** Injected faults: answered before routing. */
  takeFault(
    method: string,
    path: string,
  ): { status: number; code: number; message: string; retryAfter: number } | undefined
  record(entry: ApiRequestRecord): void
}

interface Call {
  req: IncomingMessage
  url: URL
  params: string[]
  body: Buffer
  ctx: ApiContext
  /** What the calling token may do. */
  scope: TokenScope
}

type Result = { status?: number; body: unknown; raw?: true; headers?: Record<string, string> }
type Handler = (call: Call) => Promise<unknown | Result> | unknown | Result

const routes: { method: string; path: string; pattern: RegExp; handler: Handler }[] = []
function route(method: string, path: string, handler: Handler) {
  const pattern = new RegExp(`^${path.replace(/:[a-z_]+/g, '([^/]+)')}$`)
  routes.push({ method, path, pattern, handler })
}
const A = '/client/v4/accounts/:account'

const ok = (body: unknown, status = 200): Result => ({ status, body })

/**
 * One page of a list, in Cloudflare's envelope with `result_info` (page, per_page, count,
 * total_count, total_pages). `per_page` defaults to the account's pageSize (the drills make it
 * small, so a reader that takes the first page alone misses entries). Guess: a client that names
 * neither `page` nor `per_page` (wrangler 4.151 reads the versions list and the Previews in one
 * call) gets the whole list as one page.
 */
function paged<T>(ctx: ApiContext, url: URL, all: T[], wrap: (items: T[]) => unknown = (items) => items): Result {
  const asked = url.searchParams.has('page') || url.searchParams.has('per_page')
  const perPage = asked
    ? Number(url.searchParams.get('per_page') ?? ctx.account.options.pageSize)
    : Math.max(all.length, 1)
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1))
  if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page))
    throw new ApiError(400, 10023, 'page and per_page must be positive integers')
  const items = all.slice((page - 1) * perPage, page * perPage)
  const info = {
    page,
    per_page: perPage,
    count: items.length,
    total_count: all.length,
    total_pages: Math.max(1, Math.ceil(all.length / perPage)),
  }
  return { status: 200, body: envelope(wrap(items), info), raw: true }
}

// ── Identity: whoami and the membership lookups wrangler makes ────────────────────────────────

route('GET', '/client/v4/user', ({ ctx }) => ({
  id: 'stand-in-user',
  email: ctx.account.options.email,
  first_name: 'Stand-in',
  last_name: 'Operator',
  username: 'stand-in',
  two_factor_authentication_enabled: true,
  suspended: false,
}))
route('GET', '/client/v4/user/tokens/verify', () => ({ id: 'stand-in-token', status: 'active' }))
route('GET', '/client/v4/memberships', ({ ctx }) => [
  {
    id: 'stand-in-membership',
    status: 'accepted',
    account: { id: ctx.account.options.accountId, name: ctx.account.options.accountName },
    roles: ['Administrator'],
    permissions: {},
  },
])
route('GET', '/client/v4/accounts', ({ ctx }) => [
  { id: ctx.account.options.accountId, name: ctx.account.options.accountName, type: 'standard', settings: {} },
])

// `d1 info` asks the GraphQL analytics API for the last day's query counts. The stand-in keeps no
// analytics: it answers that one query, with no rows (wrangler then shows zeros); any other
// GraphQL operation is unknown.
route('POST', '/client/v4/graphql', ({ body }) => {
  const request = parseJson<{ operationName?: string }>(body)
  if (request.operationName !== 'getD1MetricsOverviewQuery') {
    throw new ApiError(404, 7003, `The stand-in does not serve the GraphQL operation ${request.operationName}`)
  }
  return {
    status: 200,
    raw: true,
    body: { data: { viewer: { accounts: [{ d1AnalyticsAdaptiveGroups: [] }] } }, errors: null },
  }
})

// ── workers.dev subdomain ───────────────────────────────────────────────────────────────────

route('GET', `${A}/workers/subdomain`, ({ ctx }) => {
  if (!ctx.account.options.subdomain) throw new ApiError(404, 10007, 'This account has no workers.dev subdomain')
  return { subdomain: ctx.account.options.subdomain }
})

// Registering one (wrangler offers it when the account has none). Guess: 10032 means "available"
// (wrangler treats that code as such), 10031 "taken"; the stand-in has no other accounts.
route('GET', `${A}/workers/subdomains/:subdomain`, ({ params }) => {
  throw new ApiError(404, 10032, `The subdomain ${params[0]} is available`)
})
route('PUT', `${A}/workers/subdomain`, ({ ctx, body }) => {
  const { subdomain } = parseJson<{ subdomain?: string }>(body)
  if (!subdomain || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(subdomain)) {
    throw new ApiError(400, 10031, `Invalid subdomain "${subdomain}"`)
  }
  ctx.account.options.subdomain = subdomain
  return { subdomain }
})

// ── Workers (services, scripts, the newer "workers" resource) ──────────────────────────────

// A Worker that does not exist is 10090 here (the services routes' code), 10007 on the scripts
// routes: wrangler's isWorkerNotFoundError accepts either.
route('GET', `${A}/workers/services/:name`, ({ ctx, params }) => {
  const name = decodeURIComponent(params[0] ?? '')
  if (!ctx.account.workers.has(name)) throw new ApiError(404, 10090, 'workers.api.error.service_not_found')
  return serviceJson(ctx.account, worker(ctx, params[0]))
})

route('GET', `${A}/workers/workers/:name`, ({ ctx, params }) => workerJson(ctx.account, worker(ctx, params[0])))

route('POST', `${A}/workers/workers`, ({ ctx, body }) => {
  const request = parseJson<{ name?: string; subdomain?: { enabled?: boolean; previews_enabled?: boolean } }>(body)
  const name = String(request.name ?? '')
  if (ctx.account.workers.has(name)) throw new ApiError(409, 10073, `A Worker named ${name} already exists`)
  const created = ctx.account.createWorker(
    name,
    request.subdomain?.enabled ?? true,
    request.subdomain?.previews_enabled ?? request.subdomain?.enabled ?? true,
  )
  return ok(workerJson(ctx.account, created), 201)
})

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
route('GET', `${A}/workers/scripts/:name/script-settings`, ({ ctx, params }) => worker(ctx, params[0]).settings)

route('GET', `${A}/workers/scripts/:name/subdomain`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  return { enabled: target.workersDev, previews_enabled: target.previewsEnabled }
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
route('GET', `${A}/workers/scripts/:name/schedules`, ({ ctx, params }) => ({
  schedules: worker(ctx, params[0]).schedules,
}))

// ── Secrets (the pre-versions API: each change makes a version and deploys it) ───────────────

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

// ── Static assets ───────────────────────────────────────────────────────────────────────────

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

// ── Custom domains ──────────────────────────────────────────────────────────────────────────

interface Origin {
  hostname: string
  zone_id?: string
  zone_name?: string
  enabled?: boolean
  previews_enabled?: boolean
}

route('POST', `${A}/workers/scripts/:name/domains/changeset`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const origins = parseJson<Origin[]>(body)
  const added: unknown[] = []
  const updated: unknown[] = []
  const conflicting: unknown[] = []
  for (const origin of origins) {
    const zone = ctx.account.zoneFor(origin.hostname, origin.zone_id, origin.zone_name)
    const existing = ctx.account.domains.find((d) => d.hostname === origin.hostname)
    const entry = {
      hostname: origin.hostname,
      zone_id: zone.id,
      zone_name: zone.name,
      previews_enabled: origin.previews_enabled,
    }
    if (existing) {
      updated.push({ ...entry, id: existing.id, modified: existing.service !== target.name })
    } else {
      added.push(entry)
      if (zone.dnsRecords.includes(origin.hostname)) conflicting.push(entry)
    }
  }
  const removed = ctx.account.domains
    .filter((d) => d.service === target.name && !origins.some((o) => o.hostname === d.hostname))
    .map(domainJson)
  return { added, removed, updated, conflicting }
})

route('PUT', `${A}/workers/scripts/:name/domains/records`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const request = parseJson<{
    override_scope?: boolean
    override_existing_origin?: boolean
    override_existing_dns_record?: boolean
    origins: Origin[]
  }>(body)
  const account = ctx.account
  for (const origin of request.origins) {
    const zone = account.zoneFor(origin.hostname, origin.zone_id, origin.zone_name)
    const existing = account.domains.find((d) => d.hostname === origin.hostname)
    if (existing && existing.service !== target.name && !request.override_existing_origin) {
      throw new ApiError(409, 100116, `${origin.hostname} is already a custom domain of ${existing.service}`)
    }
    if (!existing && zone.dnsRecords.includes(origin.hostname) && !request.override_existing_dns_record) {
      throw new ApiError(409, 100117, `Hostname ${origin.hostname} already has externally managed DNS records`)
    }
  }
  // override_scope: the script's domains become exactly the given ones.
  if (request.override_scope) {
    for (const d of account.domains.filter(
      (d) => d.service === target.name && !request.origins.some((o) => o.hostname === d.hostname),
    )) {
      account.domains.splice(account.domains.indexOf(d), 1)
    }
  }
  for (const origin of request.origins) {
    const zone = account.zoneFor(origin.hostname, origin.zone_id, origin.zone_name)
    const existing = account.domains.find((d) => d.hostname === origin.hostname)
    if (existing) {
      existing.service = target.name
      existing.enabled = origin.enabled ?? true
      existing.previewsEnabled = origin.previews_enabled ?? false
      continue
    }
    const replaced = zone.dnsRecords.includes(origin.hostname)
    if (replaced) zone.dnsRecords.splice(zone.dnsRecords.indexOf(origin.hostname), 1)
    account.domains.push({
      id: randomUUID().replaceAll('-', ''),
      hostname: origin.hostname,
      zoneId: zone.id,
      zoneName: zone.name,
      service: target.name,
      environment: 'production',
      enabled: origin.enabled ?? true,
      previewsEnabled: origin.previews_enabled ?? false,
      createdAt: new Date().toISOString(),
      certificateReadyAt: Date.now() + account.options.certificateDelayMs,
      replacedDnsRecord: replaced,
    })
  }
  return account.domains.filter((d) => d.service === target.name).map(domainJson)
})

route('GET', `${A}/workers/domains/records/:id`, ({ ctx, params }) => {
  const domain = ctx.account.domains.find((d) => d.id === params[0])
  if (!domain) throw new ApiError(404, 100114, 'Custom domain not found')
  return domainJson(domain)
})

// ── Previews ────────────────────────────────────────────────────────────────────────────────

route('GET', `${A}/workers/workers/:name/previews`, ({ ctx, params, url }) => {
  const target = worker(ctx, params[0])
  return paged(
    ctx,
    url,
    target.previews.map((p) => previewJson(ctx.account, target, p)),
  )
})

route('POST', `${A}/workers/workers/:name/previews`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const { name, ...settings } = parseJson<{ name: string } & Record<string, unknown>>(body)
  const preview = ctx.account.createPreview(target, name, settings)
  return ok(previewJson(ctx.account, target, preview), 201)
})

route('GET', `${A}/workers/workers/:name/previews/:preview`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  return previewJson(ctx.account, target, ctx.account.preview(target, decodeURIComponent(params[1] ?? '')))
})

route('PATCH', `${A}/workers/workers/:name/previews/:preview`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const preview = ctx.account.preview(target, decodeURIComponent(params[1] ?? ''))
  Object.assign(preview.settings, parseJson(body))
  return previewJson(ctx.account, target, preview)
})

route('DELETE', `${A}/workers/workers/:name/previews/:preview`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  const preview = ctx.account.preview(target, decodeURIComponent(params[1] ?? ''))
  target.previews.splice(target.previews.indexOf(preview), 1)
  return null
})

route('GET', `${A}/workers/workers/:name/previews/:preview/deployments/:deployment`, ({ ctx, params }) => {
  const target = worker(ctx, params[0])
  const preview = ctx.account.preview(target, decodeURIComponent(params[1] ?? ''))
  return previewDeploymentJson(ctx.account, target, preview, previewDeployment(preview, params[2] ?? '', 10222))
})

route('POST', `${A}/workers/workers/:name/previews/:preview/deployments`, async ({ ctx, params, req, body }) => {
  const target = worker(ctx, params[0])
  const preview = ctx.account.preview(target, decodeURIComponent(params[1] ?? ''))
  const form = await parseMultipart(req, body)
  const metadata = JSON.parse(String(form.get('metadata') ?? '{}')) as Record<string, unknown>
  const modules: StoredModule[] = []
  for (const value of form.getAll('files')) {
    if (typeof value === 'string') continue
    modules.push({ name: value.name, contentType: value.type, content: new Uint8Array(await value.arrayBuffer()) })
  }
  const deployment = ctx.account.createPreviewDeployment(target, preview, { metadata, modules })
  ctx.warm(deployment)
  return ok(previewDeploymentJson(ctx.account, target, preview, deployment), 201)
})

// `preview secret put/delete`: a new deployment copying the latest with its env patched.
route('PATCH', `${A}/workers/workers/:name/previews/:preview/deployments/:deployment`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const preview = ctx.account.preview(target, decodeURIComponent(params[1] ?? ''))
  const latest = previewDeployment(preview, params[2] ?? '', 10032)
  const patch = parseJson<{ env?: Record<string, Binding | null>; annotations?: Record<string, string> }>(body)
  const env: Record<string, Binding> = Object.fromEntries(latest.bindings.map((b) => [b.name, b]))
  for (const [name, value] of Object.entries(patch.env ?? {})) {
    if (value === null) delete env[name]
    else env[name] = { ...value, name }
  }
  const deployment = ctx.account.createPreviewDeployment(target, preview, {
    metadata: {
      main_module: latest.mainModule,
      compatibility_date: latest.compatibilityDate,
      compatibility_flags: latest.compatibilityFlags,
      annotations: patch.annotations,
      env,
    },
    modules: latest.modules,
  })
  deployment.assets = latest.assets
  ctx.warm(deployment)
  return previewDeploymentJson(ctx.account, target, preview, deployment)
})

// ── D1 ──────────────────────────────────────────────────────────────────────────────────────

route('POST', `${A}/d1/database`, ({ ctx, body }) => {
  const request = parseJson<{ name: string; primary_location_hint?: string; jurisdiction?: string }>(body)
  const db = ctx.account.createDatabase(String(request.name ?? ''), {
    ...(request.jurisdiction ? { jurisdiction: request.jurisdiction } : {}),
    ...(request.primary_location_hint ? { primaryLocationHint: request.primary_location_hint } : {}),
  })
  return databaseJson(db)
})

route('GET', `${A}/d1/database`, ({ ctx, url, scope }) => {
  const name = url.searchParams.get('name')
  // Guess: a token scoped to some databases lists only those.
  const all = [...ctx.account.d1.values()].filter(
    (d) => (!name || d.name === name) && (scope.databases === '*' || scope.databases.includes(d.name)),
  )
  return paged(ctx, url, all.map(databaseJson))
})

route('GET', `${A}/d1/database/:db`, async ({ ctx, params }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const tables = await ctx.withD1(db.uuid, (d1) =>
    d1
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
      .run<{ n: number }>(),
  )
  return {
    ...databaseJson(db),
    num_tables: tables.results[0]?.n ?? 0,
    file_size: Number((tables.meta as { size_after?: number }).size_after ?? 0),
  }
})

route('DELETE', `${A}/d1/database/:db`, ({ ctx, params }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  ctx.account.d1.delete(db.uuid)
  return null
})

route('POST', `${A}/d1/database/:db/query`, async ({ ctx, params, body }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const request = parseJson<{ sql?: string; params?: unknown[] }>(body)
  if (!request.sql) throw new ApiError(400, 7400, 'A query needs sql')
  return ctx.withD1(db.uuid, (d1) => runQuery(d1, request.sql as string, request.params))
})

// D1 Time Travel (https://developers.cloudflare.com/d1/reference/time-travel/), as wrangler 4.151's
// `d1 time-travel info` and `restore` call it: a bookmark names the database's state at a time, and
// a restore puts that state back, answering the bookmark it replaced (`previous_bookmark`).
route('GET', `${A}/d1/database/:db/time_travel/bookmark`, async ({ ctx, params, url }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const timestamp = url.searchParams.get('timestamp')
  if (timestamp) {
    const when = Date.parse(timestamp)
    if (!Number.isFinite(when)) throw new ApiError(400, 7400, `Invalid timestamp ${timestamp}`)
    const earlier = [...ctx.account.bookmarks.entries()]
      .filter(([, state]) => state.databaseId === db.uuid && Date.parse(state.at) <= when)
      .at(-1)
    // Guess: the stand-in knows only the states it handed bookmarks for.
    if (!earlier) throw new ApiError(400, 7400, `The stand-in holds no state of ${db.name} at or before ${timestamp}`)
    return { bookmark: earlier[0] }
  }
  return { bookmark: await takeBookmark(ctx, db.uuid) }
})

route('POST', `${A}/d1/database/:db/time_travel/restore`, async ({ ctx, params, url }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const bookmark = url.searchParams.get('bookmark') ?? ''
  const state = ctx.account.bookmarks.get(bookmark)
  if (!state || state.databaseId !== db.uuid)
    throw new ApiError(400, 7400, `Unknown bookmark ${bookmark} for ${db.name}`)
  const previous = await takeBookmark(ctx, db.uuid)
  await ctx.withD1(db.uuid, async (d1) => {
    const now = await readState(d1)
    const drops = [...now.schema]
      .reverse()
      .filter((o) => o.type === 'table' || o.type === 'view')
      .map((o) => d1.prepare(`DROP ${o.type.toUpperCase()} IF EXISTS "${o.name}"`))
    const tables = state.schema.filter((o) => o.type === 'table')
    const rest = state.schema.filter((o) => o.type !== 'table')
    const inserts = Object.entries(state.rows).flatMap(([table, rows]) =>
      rows.map((row) => {
        const columns = Object.keys(row)
        return d1
          .prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          )
          .bind(...columns.map((c) => row[c]))
      }),
    )
    await d1.batch([
      d1.prepare('PRAGMA defer_foreign_keys = true'),
      ...drops,
      ...tables.map((o) => d1.prepare(o.sql)),
      ...inserts,
      ...rest.map((o) => d1.prepare(o.sql)),
    ])
  })
  return { bookmark, previous_bookmark: previous, message: `Database ${db.name} restored to ${bookmark}` }
})

/** The database's state now, kept under a new bookmark (D1's shape: four hex groups and a hash). */
async function takeBookmark(ctx: ApiContext, databaseId: string): Promise<string> {
  const state = await ctx.withD1(databaseId, readState)
  const n = ctx.account.bookmarks.size + 1
  const hex = (value: number, width: number) => value.toString(16).padStart(width, '0')
  const bookmark = `${hex(n, 8)}-${hex(n, 8)}-${hex(Date.now() % 0xffffffff, 8)}-${randomUUID().replaceAll('-', '')}`
  ctx.account.bookmarks.set(bookmark, { ...state, databaseId, at: new Date().toISOString() })
  return bookmark
}

/** Every table (and its rows), index, trigger and view of a database, D1's own and SQLite's aside. */
async function readState(d1: D1Database): Promise<Omit<DatabaseState, 'databaseId' | 'at'>> {
  const { results } = await d1
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY rowid",
    )
    .run<{ type: string; name: string; sql: string }>()
  const rows: DatabaseState['rows'] = {}
  for (const table of results.filter((o) => o.type === 'table')) {
    rows[table.name] = (await d1.prepare(`SELECT * FROM "${table.name}"`).run<Record<string, unknown>>()).results
  }
  return { schema: results, rows }
}

// `d1 execute --remote --file`: init → upload to the returned URL → ingest → poll.
route('POST', `${A}/d1/database/:db/import`, async ({ ctx, params, body }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const request = parseJson<{ action: string; etag?: string; filename?: string; current_bookmark?: string }>(body)
  if (request.action === 'init') {
    const filename = `${db.uuid}-${request.etag}.sql`
    ctx.account.d1Uploads.set(filename, { etag: String(request.etag), databaseId: db.uuid })
    // The real API answers a presigned R2 URL; the stand-in takes the PUT itself.
    return { success: true, upload_url: `${ctx.baseUrl()}/__standin/d1-upload/${filename}`, filename }
  }
  if (request.action === 'ingest') {
    const upload = ctx.account.d1Uploads.get(String(request.filename))
    if (!upload?.content) throw new ApiError(400, 7500, `Nothing was uploaded as ${request.filename}`)
    const started = Date.now()
    const sql = upload.content.toString('utf8')
    const results = await ctx.withD1(db.uuid, (d1) => runQuery(d1, sql, undefined))
    const meta = results.reduce(
      (sum, r) => ({
        rows_read: sum.rows_read + Number(r.meta.rows_read ?? 0),
        rows_written: sum.rows_written + Number(r.meta.rows_written ?? 0),
      }),
      { rows_read: 0, rows_written: 0 },
    )
    return {
      success: true,
      type: 'import',
      status: 'complete',
      at_bookmark: randomUUID(),
      messages: [`Processed ${results.length} queries.`],
      errors: [],
      result: {
        num_queries: results.length,
        final_bookmark: randomUUID(),
        meta: { ...meta, duration: Date.now() - started, size_after: upload.content.length, changed_db: true },
      },
    }
  }
  throw new ApiError(400, 7400, `The stand-in does not serve the import action "${request.action}"`)
})

// ── Token scopes ────────────────────────────────────────────────────────────────────────────

const ACCOUNT_PATH = /^\/client\/v4\/accounts\/[^/]+(\/.*)?$/

/**
 * Why a token may not make this call, or undefined. Workers calls need the Worker in the token's
 * scope (creating one needs Workers Admin for the product); D1 calls the database; custom domains
 * the zone permissions. Rules from https://developers.cloudflare.com/workers/authorization/workers/
 * (per-Worker roles cannot create Workers; routes and custom domains need zone permissions).
 */
function refusal(account: Account, scope: TokenScope, method: string, pathname: string): string | undefined {
  const rest = ACCOUNT_PATH.exec(pathname)?.[1] ?? ''
  const inScope = (list: '*' | string[], name: string) => list === '*' || list.includes(name)
  if (/\/domains\//.test(rest) && !scope.zones) return 'has no zone permissions (custom domains)'
  const workerName = /^\/workers\/(?:scripts|workers|services)\/([^/]+)/.exec(rest)?.[1]
  if (workerName) {
    const name = decodeURIComponent(workerName)
    const creates = method === 'PUT' && rest === `/workers/scripts/${workerName}` && !account.workers.has(name)
    if (creates && !scope.createWorkers) return `may not create the Worker ${name}`
    if (!inScope(scope.workers, name)) return `may not use the Worker ${name}`
    return undefined
  }
  if ((method === 'POST' && rest === '/workers/workers') || (method === 'PUT' && rest === '/workers/subdomain')) {
    return scope.createWorkers ? undefined : 'may not create Workers'
  }
  if (method === 'POST' && rest === '/d1/database')
    return scope.createDatabases ? undefined : 'may not create databases'
  const database = /^\/d1\/database\/([^/]+)/.exec(rest)?.[1]
  if (database) {
    const id = decodeURIComponent(database)
    const name = account.d1.get(id)?.name ?? [...account.d1.values()].find((d) => d.name === id)?.name ?? id
    if (!inScope(scope.databases, name)) return `may not use the database ${name}`
  }
  return undefined
}

// ── Dispatch ────────────────────────────────────────────────────────────────────────────────

function worker(ctx: ApiContext, name: string | undefined): Worker {
  return ctx.account.worker(decodeURIComponent(name ?? ''))
}

function previewDeployment(preview: Preview, identifier: string, missingCode: number): PreviewDeployment {
  const id = decodeURIComponent(identifier)
  const deployment = id === 'latest' ? preview.deployments.at(-1) : preview.deployments.find((d) => d.id === id)
  if (!deployment) throw new ApiError(404, missingCode, `Preview "${preview.name}" has no deployment ${id}`)
  return deployment
}

function completion(account: Account, manifest: Record<string, { hash: string; size: number }>): string {
  const token = makeJwt({ completion: randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600 })
  account.assetCompletions.set(token, manifest)
  return token
}

async function readUpload(req: IncomingMessage, body: Buffer) {
  const form = await parseMultipart(req, body)
  const metadataPart = form.get('metadata')
  if (metadataPart === null) throw new ApiError(400, 10021, 'The upload has no metadata part')
  const metadata = JSON.parse(typeof metadataPart === 'string' ? metadataPart : await metadataPart.text())
  const modules: StoredModule[] = []
  for (const [name, value] of form.entries()) {
    if (name === 'metadata' || typeof value === 'string') continue
    modules.push({ name, contentType: value.type, content: new Uint8Array(await value.arrayBuffer()) })
  }
  return { metadata: metadata as Record<string, unknown>, modules }
}

export async function handleApi(req: IncomingMessage, res: ServerResponse, ctx: ApiContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://stand-in')
  const method = req.method ?? 'GET'
  const at = new Date().toISOString()
  const body = await readBody(req)

  // The D1 import's upload URL (stands for the presigned R2 URL; no Cloudflare token on it).
  const upload = url.pathname.match(/^\/__standin\/d1-upload\/([^/]+)$/)
  if (upload && method === 'PUT') {
    const entry = ctx.account.d1Uploads.get(upload[1] ?? '')
    if (!entry) return sendJson(res, 404, { error: 'unknown upload' })
    entry.content = body
    const etag = createHash('md5').update(body).digest('hex')
    res.writeHead(200, { etag: `"${etag}"` })
    res.end()
    ctx.record({ at, method, path: url.pathname, status: 200 })
    return
  }

  const finish = (
    status: number,
    payload: unknown,
    extra: Partial<ApiRequestRecord> = {},
    headers: Record<string, string> = {},
  ) => {
    sendJson(res, status, payload, headers)
    ctx.record({ at, method, path: url.pathname + url.search, status, ...extra })
  }

  const matched = routes
    .map((r) => ({ r, m: r.method === method ? url.pathname.match(r.pattern) : null }))
    .find((x) => x.m)
  if (!matched?.m) {
    const message = `The stand-in Cloudflare API does not serve ${method} ${url.pathname}`
    return finish(404, errorEnvelope(new ApiError(404, 7003, `Could not route to ${url.pathname}: ${message}`)), {
      unknown: true,
      error: message,
    })
  }

  const auth = String(req.headers.authorization ?? '')
  const isAssetUpload = url.pathname.endsWith('/workers/assets/upload')
  const scope = ctx.tokens.get(auth.replace(/^Bearer /, ''))
  if (!isAssetUpload && !scope) {
    return finish(400, errorEnvelope(new ApiError(400, 10000, 'Authentication error')), {
      error: 'bad or missing token',
    })
  }
  const accountInPath = url.pathname.match(/^\/client\/v4\/accounts\/([^/]+)/)?.[1]
  if (accountInPath && accountInPath !== ctx.account.options.accountId) {
    return finish(403, errorEnvelope(new ApiError(403, 9109, 'Unauthorized to access requested resource')), {
      error: `unknown account ${accountInPath}`,
    })
  }
  const token = scope?.name
  const refused = scope && refusal(ctx.account, scope, method, url.pathname)
  if (refused) {
    // Cloudflare answers a token without the permission with 403 and code 10000.
    return finish(403, errorEnvelope(new ApiError(403, 10000, 'Authentication error')), {
      error: `token "${token}" ${refused}`,
      token,
    })
  }
  const fault = ctx.takeFault(method, url.pathname)
  if (fault) {
    return finish(
      fault.status,
      errorEnvelope(new ApiError(fault.status, fault.code, fault.message)),
      { error: `injected: ${fault.message}`, token },
      fault.retryAfter > 0 ? { 'Retry-After': String(fault.retryAfter) } : {},
    )
  }

  try {
    // Path parameters after the account id (which every /accounts/… route checks above).
    const params = [...matched.m].slice(matched.r.path.startsWith(A) ? 2 : 1)
    const outcome = await matched.r.handler({ req, url, params, body, ctx, scope: scope as TokenScope })
    if (outcome && typeof outcome === 'object' && 'body' in outcome && 'status' in outcome) {
      const result = outcome as Result
      return finish(result.status ?? 200, result.raw ? result.body : envelope(result.body), { token })
    }
    return finish(200, envelope(outcome ?? null), { token })
  } catch (error) {
    if (error instanceof ApiError) {
      // 7003 ("could not route"): a call inside a served path that the stand-in does not know either.
      return finish(error.status, errorEnvelope(error), {
        error: error.message,
        token,
        ...(error.code === 7003 ? { unknown: true } : {}),
      })
    }
    const message = (error as Error).stack ?? String(error)
    return finish(500, errorEnvelope(new ApiError(500, 10013, `Stand-in failure: ${message}`)), {
      error: message,
      token,
    })
  }
}

// ── JSON shapes (as wrangler reads them) ────────────────────────────────────────────────────

/** Guess: handlers read from the uploaded code (Cloudflare learns them by running it). */
function handlers(build: { mainModule: string; modules: StoredModule[] }): string[] {
  const main = build.modules.find((m) => m.name === build.mainModule)
  const text = main ? Buffer.from(main.content).toString('utf8') : ''
  return ['fetch', ...(/\bscheduled\b/.test(text) ? ['scheduled'] : [])]
}

function publicBinding(binding: Binding): Binding {
  if (binding.type !== 'secret_text') return { ...binding }
  const { text: _text, ...rest } = binding
  return rest as Binding
}

export function versionJson(target: Worker, version: Version) {
  return {
    id: version.id,
    number: version.number,
    metadata: {
      author_id: 'stand-in-user',
      author_email: 'operator@stand-in.example',
      source: version.source,
      created_on: version.createdOn,
      modified_on: version.createdOn,
      has_preview: version.hasPreview,
    },
    annotations: version.annotations,
    resources: {
      script: { etag: target.etag, handlers: handlers(version), last_deployed_from: 'wrangler' },
      script_runtime: {
        compatibility_date: version.compatibilityDate,
        compatibility_flags: version.compatibilityFlags,
        usage_model: 'standard',
        limits: {},
      },
      bindings: version.bindings.map(publicBinding),
    },
  }
}

export function deploymentJson(deployment: Deployment) {
  return {
    id: deployment.id,
    source: deployment.source,
    strategy: deployment.strategy,
    author_email: deployment.authorEmail,
    created_on: deployment.createdOn,
    annotations: deployment.annotations,
    versions: deployment.versions,
  }
}

function serviceJson(account: Account, target: Worker) {
  const latest = account.latestVersion(target)
  return {
    id: target.name,
    created_on: target.createdOn,
    modified_on: target.modifiedOn,
    default_environment: {
      environment: 'production',
      created_on: target.createdOn,
      modified_on: target.modifiedOn,
      script: {
        id: target.name,
        tag: target.id,
        tags: [],
        etag: target.etag,
        handlers: latest ? handlers(latest) : [],
        created_on: target.createdOn,
        modified_on: target.modifiedOn,
        usage_model: 'standard',
        compatibility_date: latest?.compatibilityDate,
        last_deployed_from: 'wrangler',
      },
    },
  }
}

function workerJson(account: Account, target: Worker) {
  const sub = account.subdomainHost
  return {
    id: target.id,
    name: target.name,
    created_on: target.createdOn,
    updated_on: target.modifiedOn,
    logpush: Boolean(target.settings.logpush),
    observability: target.settings.observability ?? { enabled: false },
    tags: [],
    tail_consumers: [],
    subdomain: {
      enabled: target.workersDev,
      previews_enabled: target.previewsEnabled,
      ...(sub ? { preview_url_suffix: `-${target.name}.${sub}` } : {}),
    },
    previews_base_config: {},
  }
}

function previewJson(account: Account, target: Worker, preview: Preview) {
  const sub = account.subdomainHost
  return {
    id: preview.id,
    name: preview.name,
    slug: preview.slug,
    worker_name: target.name,
    created_on: preview.createdOn,
    updated_on: preview.deployments.at(-1)?.createdOn ?? preview.createdOn,
    urls: sub && target.previewsEnabled ? [`https://${preview.slug}-${target.name}.${sub}`] : [],
    ...preview.settings,
  }
}

function previewDeploymentJson(account: Account, target: Worker, preview: Preview, deployment: PreviewDeployment) {
  const sub = account.subdomainHost
  return {
    id: deployment.id,
    preview_id: preview.id,
    preview_name: preview.name,
    worker_name: target.name,
    created_on: deployment.createdOn,
    // Guess: a deployment's own URL is the first 8 characters of its id, like a version's.
    urls: sub && target.previewsEnabled ? [`https://${deployment.id.slice(0, 8)}-${target.name}.${sub}`] : [],
    compatibility_date: deployment.compatibilityDate,
    compatibility_flags: deployment.compatibilityFlags,
    main_module: deployment.mainModule,
    annotations: deployment.annotations,
    env: Object.fromEntries(
      deployment.bindings.map((b) => {
        const { name: _name, ...rest } = publicBinding(b)
        return [b.name, rest]
      }),
    ),
  }
}

function databaseJson(db: { uuid: string; name: string; createdAt: string; jurisdiction?: string }) {
  return {
    uuid: db.uuid,
    name: db.name,
    created_at: db.createdAt,
    version: 'production',
    num_tables: 0,
    file_size: 0,
    running_in_region: 'WEUR',
    read_replication: { mode: 'disabled' },
    ...(db.jurisdiction ? { jurisdiction: db.jurisdiction } : {}),
  }
}

function domainJson(domain: Account['domains'][number]) {
  return {
    id: domain.id,
    zone_id: domain.zoneId,
    zone_name: domain.zoneName,
    hostname: domain.hostname,
    service: domain.service,
    environment: domain.environment,
    enabled: domain.enabled,
    previews_enabled: domain.previewsEnabled,
    cert_id: `cert-${domain.id}`,
  }
}
