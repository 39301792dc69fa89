/** Previews and their deployments (`wrangler preview`, `preview secret`, `preview delete`). */
import { randomUUID } from 'node:crypto'
import { ApiError, parseJson } from '../http.ts'
import {
  type Account,
  type AssetsRef,
  type Binding,
  clean,
  type Preview,
  type PreviewDeployment,
  type StoredModule,
  stringRecord,
  type Worker,
} from '../model.ts'
import { previewDeploymentJson, previewJson } from './json.ts'
import { A, type Call, ok, paged, readUpload, route, worker } from './routes.ts'

const P = `${A}/workers/workers/:name/previews`

/** Cloudflare's slug for a Preview name. Guess: lower case, runs of other characters become "-". */
function previewSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63) || 'preview'
  )
}

/** The Worker and Preview a call names (by id, slug or name). */
function previewOf({ ctx, params }: Call): { target: Worker; preview: Preview } {
  const target = worker(ctx, params[0])
  const id = decodeURIComponent(params[1] ?? '')
  const preview = target.previews.find((p) => p.id === id || p.slug === id || p.name === id)
  if (!preview) throw new ApiError(404, 10025, `Preview "${id}" not found`)
  return { target, preview }
}

function previewDeployment(preview: Preview, identifier: string, missingCode: number): PreviewDeployment {
  const id = decodeURIComponent(identifier)
  const deployment = id === 'latest' ? preview.deployments.at(-1) : preview.deployments.find((d) => d.id === id)
  if (!deployment) throw new ApiError(404, missingCode, `Preview "${preview.name}" has no deployment ${id}`)
  return deployment
}

/**
 * A Preview deployment. Its env is what the request carries; an "inherit" binding takes the
 * Preview's previous deployment's, never production's (Previews inherit nothing from production).
 */
function createPreviewDeployment(
  account: Account,
  target: Worker,
  preview: Preview,
  request: { metadata: Record<string, unknown>; modules: StoredModule[] },
): PreviewDeployment {
  const { metadata } = request
  const previous = preview.deployments.at(-1)
  const bindings: Binding[] = []
  for (const [name, binding] of Object.entries((metadata.env ?? {}) as Record<string, Binding>)) {
    if (binding.type === 'inherit') {
      const inherited = previous?.bindings.find((b) => b.name === name)
      if (inherited) bindings.push({ ...inherited })
    } else if (binding.type === 'd1') {
      const id = String(binding.database_id ?? binding.id ?? '')
      if (!account.d1.has(id)) {
        throw new ApiError(400, 10021, `binding ${name} of type d1 must have a valid \`database_id\` specified`)
      }
      bindings.push(clean({ ...binding, name, id }))
    } else bindings.push(clean({ ...binding, name }))
  }
  // wrangler sends a Preview's _headers and _redirects as modules of those names; they are its assets' rules.
  const rules = request.modules.filter((m) => m.name === '_headers' || m.name === '_redirects')
  const code = request.modules.filter((m) => !rules.includes(m))
  const modules = code.length > 0 ? code : (previous?.modules ?? [])
  const mainModule = String(metadata.main_module ?? previous?.mainModule ?? '')
  if (!modules.some((m) => m.name === mainModule)) {
    throw new ApiError(400, 10021, `No such module "${mainModule}" in the upload (main_module)`)
  }
  const deployment: PreviewDeployment = {
    kind: 'preview',
    id: randomUUID(),
    previewId: preview.id,
    workerName: target.name,
    createdOn: new Date().toISOString(),
    annotations: stringRecord(metadata.annotations),
    mainModule,
    modules,
    bindings,
    compatibilityDate: String(metadata.compatibility_date ?? previous?.compatibilityDate ?? '2000-01-01'),
    compatibilityFlags: (metadata.compatibility_flags as string[] | undefined) ?? previous?.compatibilityFlags ?? [],
    assets: metadata.assets ? withRules(account.resolveAssets(metadata.assets), rules) : previous?.assets,
  }
  preview.deployments.push(deployment)
  return deployment
}

function withRules(assets: AssetsRef | undefined, rules: StoredModule[]): AssetsRef | undefined {
  if (!assets || rules.length === 0) return assets
  const text = Object.fromEntries(rules.map((m) => [m.name, new TextDecoder().decode(m.content)]))
  return { ...assets, config: { ...text, ...assets.config } }
}

route('GET', P, ({ ctx, params, url }) => {
  const target = worker(ctx, params[0])
  return paged(
    ctx,
    url,
    target.previews.map((p) => previewJson(ctx.account, target, p)),
  )
})

route('POST', P, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const { name, ...settings } = parseJson<{ name: string } & Record<string, unknown>>(body)
  if (!name) throw new ApiError(400, 10026, 'A Preview needs a name')
  const slug = previewSlug(name)
  if (target.previews.some((p) => p.name === name || p.slug === slug)) {
    throw new ApiError(409, 10026, `A Preview named "${name}" already exists`)
  }
  const preview: Preview = {
    id: randomUUID(),
    name,
    slug,
    createdOn: new Date().toISOString(),
    settings,
    deployments: [],
  }
  target.previews.push(preview)
  return ok(previewJson(ctx.account, target, preview), 201)
})

route('GET', `${P}/:preview`, (call) => {
  const { target, preview } = previewOf(call)
  return previewJson(call.ctx.account, target, preview)
})

route('PATCH', `${P}/:preview`, (call) => {
  const { target, preview } = previewOf(call)
  Object.assign(preview.settings, parseJson(call.body))
  return previewJson(call.ctx.account, target, preview)
})

route('DELETE', `${P}/:preview`, (call) => {
  const { target, preview } = previewOf(call)
  target.previews.splice(target.previews.indexOf(preview), 1)
  return null
})

route('GET', `${P}/:preview/deployments/:deployment`, (call) => {
  const { target, preview } = previewOf(call)
  const deployment = previewDeployment(preview, call.params[2] ?? '', 10222)
  return previewDeploymentJson(call.ctx.account, target, preview, deployment)
})

route('POST', `${P}/:preview/deployments`, async (call) => {
  const { target, preview } = previewOf(call)
  const upload = await readUpload(call.req, call.body, 'files')
  const deployment = createPreviewDeployment(call.ctx.account, target, preview, upload)
  call.ctx.warm(deployment)
  return ok(previewDeploymentJson(call.ctx.account, target, preview, deployment), 201)
})

// `preview secret put/delete`: a new deployment copying the latest with its env patched.
route('PATCH', `${P}/:preview/deployments/:deployment`, (call) => {
  const { target, preview } = previewOf(call)
  const latest = previewDeployment(preview, call.params[2] ?? '', 10032)
  const patch = parseJson<{ env?: Record<string, Binding | null>; annotations?: Record<string, string> }>(call.body)
  const env: Record<string, Binding> = Object.fromEntries(latest.bindings.map((b) => [b.name, b]))
  for (const [name, value] of Object.entries(patch.env ?? {})) {
    if (value === null) delete env[name]
    else env[name] = { ...value, name }
  }
  const metadata = {
    main_module: latest.mainModule,
    compatibility_date: latest.compatibilityDate,
    compatibility_flags: latest.compatibilityFlags,
    annotations: patch.annotations,
    env,
  }
  const deployment = createPreviewDeployment(call.ctx.account, target, preview, { metadata, modules: latest.modules })
  deployment.assets = latest.assets
  call.ctx.warm(deployment)
  return previewDeploymentJson(call.ctx.account, target, preview, deployment)
})
