/** What workerd runs for an uploaded build: its Worker's options, its entry module, its key. */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Binding, Build } from './model.ts'

/** What answers a request: a build, with the bindings and version metadata of one version. */
export interface RunTarget {
  build: Build
  /** The id, tag and time the version_metadata binding reports. */
  metadata: { id: string; tag: string; timestamp: string }
  /** Asset contents by hash. */
  asset(hash: string): Uint8Array | undefined
}

/** Header carrying the answering version's bindings from the edge to the build's Worker. */
export const ENV_HEADER = 'cf-standin-env'
/** Header asking the build's Worker to run the scheduled handler instead (its value: the cron). */
export const SCHEDULED_HEADER = 'cf-standin-scheduled'

/** The entry module of a build's Worker: the answering version's env, then the uploaded handler. */
const ENTRY = (mainModule: string) => `import uploaded from './${mainModule}'
import { withEnv } from 'cloudflare:workers'

function versionEnv(description, own) {
  const env = {}
  for (const [name, value] of description.values) env[name] = value
  for (const [name, slot] of description.slots) env[name] = own[slot]
  if (description.metadata) env[description.metadata[0]] = description.metadata[1]
  return env
}

export default {
  async fetch(request, own, ctx) {
    const raw = request.headers.get('${ENV_HEADER}')
    if (raw === null) return new Response('stand-in: no version bindings on this request', { status: 500 })
    const env = versionEnv(JSON.parse(decodeURIComponent(escape(atob(raw)))), own)
    const cron = request.headers.get('${SCHEDULED_HEADER}')
    if (cron !== null) {
      try {
        await withEnv(env, () => uploaded.scheduled({ cron, scheduledTime: Date.now(), noRetry() {} }, env, ctx))
        return Response.json({ outcome: 'ok' })
      } catch (error) {
        console.error(String(error && error.stack || error))
        return Response.json({ outcome: 'exception' })
      }
    }
    const headers = new Headers(request.headers)
    headers.delete('${ENV_HEADER}')
    return withEnv(env, () => uploaded.fetch(new Request(request, { headers }), env, ctx))
  },
}
`

export function buildWorkerOptions(
  dir: string,
  target: RunTarget,
  key: string,
  outbound: (request: Request) => Promise<Response>,
): Record<string, unknown> {
  const { build } = target
  const root = join(dir, 'builds', key.slice(0, 16))
  const modules = build.modules.flatMap((module) => {
    const type = moduleType(module.contentType)
    if (!type) return []
    const path = join(root, 'modules', module.name)
    return [{ type, path, contents: module.content }]
  })
  modules.unshift({
    type: 'ESModule',
    path: join(root, 'modules', '__standin_entry.mjs'),
    contents: new TextEncoder().encode(ENTRY(build.mainModule)),
  })
  let assets: Record<string, unknown> | undefined
  if (build.assets) {
    const directory = join(root, 'assets')
    for (const [path, { hash }] of Object.entries(build.assets.manifest)) {
      const content = target.asset(hash)
      if (!content) throw new Error(`Asset ${path} (${hash}) was never uploaded`)
      const file = join(directory, path)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
    mkdirSync(directory, { recursive: true })
    const config = build.assets.config
    // wrangler sends _headers and _redirects as text beside the manifest; Miniflare reads them
    // from the assets directory, as Cloudflare applies them.
    if (typeof config._headers === 'string') writeFileSync(join(directory, '_headers'), config._headers)
    if (typeof config._redirects === 'string') writeFileSync(join(directory, '_redirects'), config._redirects)
    const assetsBinding = build.bindings.find((b) => b.type === 'assets')?.name
    assets = {
      directory,
      ...(assetsBinding ? { binding: assetsBinding } : {}),
      ...(config.run_worker_first !== undefined ? { run_worker_first: config.run_worker_first } : {}),
      routerConfig: { has_user_worker: true },
      assetConfig: {
        ...(config.html_handling ? { html_handling: config.html_handling } : {}),
        ...(config.not_found_handling ? { not_found_handling: config.not_found_handling } : {}),
        ...(config.base_path ? { base_path: config.base_path } : {}),
      },
    }
  }
  return {
    name: `build-${key.slice(0, 16)}`,
    modules,
    modulesRoot: join(root, 'modules'),
    compatibilityDate: build.compatibilityDate,
    compatibilityFlags: build.compatibilityFlags,
    ...(assets ? { assets } : {}),
    outboundService: outbound,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0, proxy: true }],
  }
}

export const rateLimitKey = (b: Binding) => JSON.stringify({ namespace_id: String(b.namespace_id), simple: b.simple })

export function emailOptions(binding: Binding): Record<string, unknown> {
  const options: Record<string, unknown> = {}
  for (const field of ['destination_address', 'allowed_destination_addresses', 'allowed_sender_addresses']) {
    if (binding[field] !== undefined) options[field] = binding[field]
  }
  return options
}

export const emailKey = (b: Binding) => JSON.stringify(emailOptions(b))

const buildKeys = new WeakMap<Build, string>()

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value)
const sortedKeys = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** What makes two builds one Worker: the same modules, assets and compatibility settings. */
export function buildKey(build: Build): string {
  const known = buildKeys.get(build)
  if (known) return known
  const hash = createHash('sha256')
  hash.update(JSON.stringify([build.mainModule, build.compatibilityDate, build.compatibilityFlags]))
  for (const module of build.modules) {
    hash.update(`${module.name}\0${module.contentType}\0`)
    hash.update(module.content)
  }
  // Keys sorted: wrangler lists a manifest in the order its walk finished, which changes from upload to upload.
  hash.update(JSON.stringify(build.assets ?? null, (_key, value) => (isRecord(value) ? sortedKeys(value) : value)))
  hash.update(JSON.stringify(build.bindings.find((b) => b.type === 'assets')?.name ?? null))
  const key = hash.digest('hex')
  buildKeys.set(build, key)
  return key
}

const MODULE_TYPES: Record<string, 'ESModule' | 'CommonJS' | 'Text' | 'Data' | 'CompiledWasm' | undefined> = {
  'application/javascript+module': 'ESModule',
  'application/javascript': 'CommonJS',
  'text/javascript': 'CommonJS',
  'text/plain': 'Text',
  'application/octet-stream': 'Data',
  'application/wasm': 'CompiledWasm',
  'application/source-map': undefined,
}

function moduleType(contentType: string) {
  const type = contentType.split(';')[0]?.trim() ?? ''
  if (!(type in MODULE_TYPES)) throw new Error(`The stand-in does not know the module type "${contentType}"`)
  return MODULE_TYPES[type]
}
