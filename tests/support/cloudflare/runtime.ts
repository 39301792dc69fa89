/**
 * Runs what was uploaded to one account: one Miniflare (one workerd process) holds every D1
 * database of the account and runs each uploaded build, with the bindings of the version (or
 * Preview deployment) that answers.
 *
 * Why one process per account: a D1 database lives in a SQLite file owned by workerd (Miniflare's
 * D1 Durable Object). The served Worker writes it, and `wrangler d1 execute --remote` must read the
 * very same rows through the API. Opening that file from a second process (node:sqlite, or a second
 * workerd) while workerd holds it is unsafe: workerd's SQLite layer does not take part in another
 * process's file locks, so the two would not see each other's writes reliably and could corrupt the
 * file. So the API's query endpoint runs its SQL through Miniflare's own D1 binding for that
 * database, in the same workerd that serves the Worker.
 *
 * One Worker per build, not per version: versions of one build (the same modules, assets and
 * compatibility settings, differing in vars, secrets and bindings, as every version a drill makes
 * does) run in one workerd Worker. Its entry module (ENTRY below) takes the answering version's
 * bindings from a header the edge adds, builds that version's env from them and the account's
 * databases, rate limiters and e-mail bindings it holds, and calls the uploaded handler inside
 * `withEnv` (cloudflare:workers), so `import { env } from 'cloudflare:workers'` reads that version's
 * env too. Adding a Worker restarts workerd (about a second, with each running Worker's modules
 * compiled again); a new version of a build already running restarts nothing. The cost: versions of
 * one build share an isolate, and with it module state (the page cache), which Cloudflare keeps per
 * version (README.md, "What the stand-in had to guess").
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { dirname, join } from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import type { Binding, Build } from './model.ts'

type OutboundHandler = (request: Request) => Promise<Response>

/** What answers a request: a build, with the bindings and version metadata of one version. */
export interface RunTarget {
  build: Build
  /** The id, tag and time the version_metadata binding reports. */
  metadata: { id: string; tag: string; timestamp: string }
  /** Asset contents by hash. */
  asset(hash: string): Uint8Array | undefined
}

const D1_WORKER = 'standin-d1'
/** Header carrying the answering version's bindings from the edge to the build's Worker. */
export const ENV_HEADER = 'cf-standin-env'
/** Header asking the build's Worker to run the scheduled handler instead (its value: the cron). */
const SCHEDULED_HEADER = 'cf-standin-scheduled'
/** Builds kept running at once; the least recently used beyond this are stopped (started again when asked for). */
const MAX_RUNNING = 3
/** How long a restart waits for requests in flight to finish before it goes ahead anyway. */
const DRAIN_TIMEOUT_MS = 30_000

class CapturingLog extends Log {
  readonly lines: string[]
  constructor(lines: string[]) {
    super(LogLevel.INFO)
    this.lines = lines
  }
  override log(message: string): void {
    this.lines.push(message)
  }
}

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

interface BuildWorker {
  key: string
  name: string
  options: Record<string, unknown>
}

export class Runtime {
  private mf: Miniflare | undefined
  private readonly workers = new Map<string, BuildWorker>()
  private readonly lastUsed = new Map<string, number>()
  private readonly databases: string[] = []
  /** Account-wide bindings every build's Worker holds, by slot name (`RL_0`, `EMAIL_0`): their definitions. */
  private readonly rateLimits = new Map<string, { slot: string; options: Record<string, unknown> }>()
  private readonly emails = new Map<string, { slot: string; options: Record<string, unknown> }>()
  private chain: Promise<unknown> = Promise.resolve()
  private readonly dir: string
  private readonly outbound: OutboundHandler
  /** Work running against workerd (requests, D1 queries): a restart waits for it to finish. */
  private inflight = 0
  private restarting = false
  private drained: (() => void)[] = []
  /** What workerd and the served Workers printed (console lines, send_email notices). */
  readonly logLines: string[] = []
  restarts = 0

  constructor(dir: string, outbound: OutboundHandler) {
    this.dir = dir
    this.outbound = outbound
  }

  /** Runs `work` after every earlier runtime change (restarts are serialised). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work)
    this.chain = next.catch(() => {})
    return next
  }

  /** Every build's Worker holds every database, rate limiter and e-mail binding of the account. */
  private shared() {
    return {
      d1Databases: Object.fromEntries(this.databases.map((id, i) => [`D1_${i}`, id])),
      ratelimits: Object.fromEntries([...this.rateLimits.values()].map((r) => [r.slot, r.options])),
      ...(this.emails.size > 0
        ? { email: { send_email: [...this.emails.values()].map((e) => ({ name: e.slot, ...e.options })) } }
        : {}),
    }
  }

  private options() {
    const d1Worker = {
      name: D1_WORKER,
      modules: [{ type: 'ESModule' as const, path: join(this.dir, 'd1.mjs'), contents: D1_SCRIPT }],
      modulesRoot: this.dir,
      compatibilityDate: '2026-01-01',
      d1Databases: Object.fromEntries(this.databases.map((id, i) => [`DB_${i}`, id])),
    }
    return convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      logRequests: false,
      cf: false,
      log: new CapturingLog(this.logLines),
      // The served Workers' console output, kept for state.logs() instead of this process's stdout.
      handleStructuredLogs: ({ message }: { message: string }) => {
        this.logLines.push(message)
      },
      resourcePersistencePath: join(this.dir, 'state'),
      workers: [d1Worker, ...[...this.workers.values()].map((w) => ({ ...w.options, ...this.shared() }))],
      // biome-ignore lint/suspicious/noExplicitAny: Miniflare's V4 option types are a deep zod union
    } as any)
  }

  /** Starts or restarts workerd with the current Workers, once the work in flight has finished. */
  private async apply(): Promise<void> {
    this.restarting = true
    try {
      const deadline = Date.now() + DRAIN_TIMEOUT_MS
      while (this.inflight > 0 && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          this.drained.push(resolve)
          setTimeout(resolve, 250)
        })
      }
      const snapshot = {
        databases: [...this.databases],
        workers: new Set(this.workers.keys()),
        rateLimits: new Set(this.rateLimits.keys()),
        emails: new Set(this.emails.keys()),
      }
      if (!this.mf) {
        this.mf = new Miniflare(this.options())
        await this.mf.ready
      } else {
        await this.mf.setOptions(this.options())
        this.restarts++
      }
      this.started = snapshot
    } finally {
      this.restarting = false
    }
  }

  /**
   * Runs `work` against workerd once `ready()` holds (after `change()`, a restart, if it does not),
   * with no restart while it runs.
   */
  private async hold<T>(
    ready: () => boolean,
    change: () => () => void,
    work: (mf: Miniflare) => Promise<T>,
  ): Promise<T> {
    for (;;) {
      if (!this.mf || !ready()) {
        await this.serial(async () => {
          if (this.mf && ready()) return
          const undo = change()
          try {
            await this.apply()
          } catch (error) {
            // A Worker that cannot start (its code throws at startup, say) must not stop the rest:
            // take it out again and bring workerd back without it.
            undo()
            await this.apply().catch(() => {})
            throw error
          }
        })
      }
      await this.chain
      if (this.restarting || !this.mf || !ready()) continue
      this.inflight++
      try {
        return await work(this.mf)
      } finally {
        this.inflight--
        if (this.inflight === 0) for (const resolve of this.drained.splice(0)) resolve()
      }
    }
  }

  /** Databases the account has: held from the next (re)start on, so a new one costs no restart of its own later. */
  knowDatabases(ids: string[]): void {
    for (const id of ids) if (!this.databases.includes(id)) this.databases.push(id)
  }

  /** Runs `work` with a database's D1 binding (the API's queries and the served Workers share it). */
  withDatabase<T>(id: string, work: (db: D1Database) => Promise<T>): Promise<T> {
    return this.hold(
      () => this.started.databases.includes(id),
      () => {
        this.knowDatabases([id])
        return () => {}
      },
      async (mf) =>
        work((await mf.getD1Database(`DB_${this.databases.indexOf(id)}`, D1_WORKER)) as unknown as D1Database),
    )
  }

  /** What workerd was last started with. */
  private started = {
    databases: [] as string[],
    workers: new Set<string>(),
    rateLimits: new Set<string>(),
    emails: new Set<string>(),
  }

  /** The account-wide bindings a build's version needs, added (for the next start) when new. */
  private slotsFor(bindings: Binding[]): boolean {
    let added = false
    for (const binding of bindings) {
      if (binding.type === 'd1' && !this.databases.includes(String(binding.id))) {
        this.databases.push(String(binding.id))
        added = true
      }
      if (binding.type === 'ratelimit' && !this.rateLimits.has(rateLimitKey(binding))) {
        const options = { namespace_id: String(binding.namespace_id), simple: binding.simple }
        this.rateLimits.set(rateLimitKey(binding), { slot: `RL_${this.rateLimits.size}`, options })
        added = true
      }
      if (binding.type === 'send_email' && !this.emails.has(emailKey(binding))) {
        this.emails.set(emailKey(binding), { slot: `EMAIL_${this.emails.size}`, options: emailOptions(binding) })
        added = true
      }
    }
    return added
  }

  /** The answering version's env, for the build's entry module: values, and slots of the Worker's own bindings. */
  private describe(target: RunTarget): string {
    const values: [string, unknown][] = []
    const slots: [string, string][] = []
    let metadata: [string, RunTarget['metadata']] | undefined
    for (const binding of target.build.bindings) {
      switch (binding.type) {
        case 'plain_text':
        case 'secret_text':
          values.push([binding.name, binding.text ?? ''])
          break
        case 'json':
          values.push([binding.name, binding.json])
          break
        case 'd1':
          slots.push([binding.name, `D1_${this.databases.indexOf(String(binding.id))}`])
          break
        case 'ratelimit':
          slots.push([binding.name, this.rateLimits.get(rateLimitKey(binding))?.slot as string])
          break
        case 'send_email':
          slots.push([binding.name, this.emails.get(emailKey(binding))?.slot as string])
          break
        case 'assets':
          slots.push([binding.name, binding.name])
          break
        case 'version_metadata':
          metadata = [binding.name, target.metadata]
          break
        default:
          throw new Error(
            `The stand-in cannot run a binding of type "${binding.type}" (${binding.name}); add it to tests/support/cloudflare/runtime.ts`,
          )
      }
    }
    return Buffer.from(JSON.stringify({ values, slots, metadata }), 'utf8').toString('base64')
  }

  /**
   * Runs `work` with the address of the Worker running the target's build (started if need be)
   * and the header that makes it answer as the target. Its socket takes proxy-style requests
   * (`GET https://host/path`), so the Worker sees the URL the client asked for; a build with assets
   * answers there through Miniflare's assets router, as on Cloudflare (assets first, then the
   * Worker). workerd is not restarted while `work` runs.
   */
  withWorker<T>(
    target: RunTarget,
    work: (address: URL, envHeader: [string, string], mf: Miniflare) => Promise<T>,
  ): Promise<T> {
    const key = buildKey(target.build)
    return this.hold(
      () => this.started.workers.has(key) && !this.pending(target.build.bindings),
      () => {
        this.slotsFor(target.build.bindings)
        const existing = this.workers.get(key)
        if (existing) return () => {}
        const idle = [...this.workers.keys()].sort((a, b) => (this.lastUsed.get(a) ?? 0) - (this.lastUsed.get(b) ?? 0))
        while (idle.length >= MAX_RUNNING) this.workers.delete(idle.shift() as string)
        this.workers.set(key, { key, name: `build-${key.slice(0, 16)}`, options: this.workerOptions(target, key) })
        return () => this.workers.delete(key)
      },
      async (mf) => {
        this.lastUsed.set(key, Date.now())
        const worker = this.workers.get(key) as BuildWorker
        return work(await mf.unsafeGetDirectURL(worker.name), [ENV_HEADER, this.describe(target)], mf)
      },
    )
  }

  /** Whether a version needs a binding workerd was not started with. */
  private pending(bindings: Binding[]): boolean {
    return bindings.some((b) => {
      if (b.type === 'd1') return !this.started.databases.includes(String(b.id))
      if (b.type === 'ratelimit') return !this.started.rateLimits.has(rateLimitKey(b))
      if (b.type === 'send_email') return !this.started.emails.has(emailKey(b))
      return false
    })
  }

  /** Starts a build's Worker ahead of its first request (as a new version reaches Cloudflare's edge). */
  warm(target: RunTarget): void {
    this.withWorker(target, async () => undefined).catch(() => {
      // A build that cannot run says why on its first request.
    })
  }

  /** Runs the target's scheduled handler once, as a Cron Trigger does. */
  scheduled(target: RunTarget, cron: string): Promise<{ outcome: string }> {
    return this.withWorker(
      target,
      (address, [name, value]) =>
        new Promise((resolve, reject) => {
          const request = httpRequest(
            {
              host: address.hostname,
              port: address.port,
              path: 'https://scheduled.stand-in/',
              headers: { [name]: value, [SCHEDULED_HEADER]: cron },
            },
            (answer) => {
              let text = ''
              answer.on('data', (chunk: Buffer) => {
                text += chunk
              })
              answer.on('end', () => {
                try {
                  resolve(JSON.parse(text) as { outcome: string })
                } catch {
                  reject(new Error(`the scheduled handler answered ${answer.statusCode}: ${text.slice(0, 500)}`))
                }
              })
            },
          )
          request.on('error', reject)
          request.end()
        }),
    )
  }

  private workerOptions(target: RunTarget, key: string): Record<string, unknown> {
    const { build } = target
    const root = join(this.dir, 'builds', key.slice(0, 16))
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
      outboundService: (request: Request) => this.outbound(request),
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0, proxy: true }],
    }
  }

  get runningWorkers(): string[] {
    return [...this.workers.keys()]
  }

  async dispose(): Promise<void> {
    await this.chain
    await this.mf?.dispose()
    this.mf = undefined
  }
}

const rateLimitKey = (b: Binding) => JSON.stringify({ namespace_id: String(b.namespace_id), simple: b.simple })

function emailOptions(binding: Binding): Record<string, unknown> {
  const options: Record<string, unknown> = {}
  for (const field of ['destination_address', 'allowed_destination_addresses', 'allowed_sender_addresses']) {
    if (binding[field] !== undefined) options[field] = binding[field]
  }
  return options
}

const emailKey = (b: Binding) => JSON.stringify(emailOptions(b))

const buildKeys = new WeakMap<Build, string>()

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
  hash.update(JSON.stringify(build.assets ?? null))
  hash.update(JSON.stringify(build.bindings.find((b) => b.type === 'assets')?.name ?? null))
  const key = hash.digest('hex')
  buildKeys.set(build, key)
  return key
}

function moduleType(contentType: string): 'ESModule' | 'CommonJS' | 'Text' | 'Data' | 'CompiledWasm' | undefined {
  const type = contentType.split(';')[0]?.trim()
  switch (type) {
    case 'application/javascript+module':
      return 'ESModule'
    case 'application/javascript':
    case 'text/javascript':
      return 'CommonJS'
    case 'text/plain':
      return 'Text'
    case 'application/octet-stream':
      return 'Data'
    case 'application/wasm':
      return 'CompiledWasm'
    case 'application/source-map':
      return undefined
    default:
      throw new Error(`The stand-in does not know the module type "${contentType}"`)
  }
}

const D1_SCRIPT = 'export default { fetch() { return new Response("stand-in D1 host") } }'
