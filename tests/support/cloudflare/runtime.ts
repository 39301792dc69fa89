/**
 * Runs what was uploaded: one Miniflare (one workerd process) holds every D1 database of the
 * account and, started on first request, each served version or Preview deployment as its own
 * Worker, built from the uploaded modules, assets, vars, secrets and bindings.
 *
 * Why one process: a D1 database lives in a SQLite file owned by workerd (Miniflare's D1 Durable
 * Object). The served Worker writes it, and `wrangler d1 execute --remote` must read the very same
 * rows through the API. Opening that file from a second process (node:sqlite, or a second workerd)
 * while workerd holds it is unsafe: workerd's SQLite layer does not take part in another process's
 * file locks, so the two would not see each other's writes reliably and could corrupt the file.
 * So the API's query endpoint runs its SQL through Miniflare's own D1 binding for that database, in
 * the same workerd that serves the Worker. Adding a Worker restarts workerd (about 0.7 s); the
 * databases are persisted in a temporary directory and survive the restart.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import type { Build } from './model.ts'

type OutboundHandler = (request: Request) => Promise<Response>

/** A Worker to run: a key (its Worker name in workerd) and the build. */
export interface RunTarget {
  key: string
  build: Build
  /** Asset contents by hash. */
  asset(hash: string): Uint8Array | undefined
}

const D1_WORKER = 'standin-d1'
/**
 * Served Workers kept running at once. Each restart reloads every running Worker's modules, so the
 * least recently used ones beyond this are stopped (and started again if asked for).
 */
const MAX_RUNNING = 3

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

/** How long a restart waits for requests in flight to finish before it goes ahead anyway. */
const DRAIN_TIMEOUT_MS = 30_000

export class Runtime {
  private mf: Miniflare | undefined
  private readonly targets = new Map<string, Record<string, unknown>>()
  private readonly lastUsed = new Map<string, number>()
  private readonly databases: string[] = []
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
      workers: [d1Worker, ...this.targets.values()],
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
      if (!this.mf) {
        this.mf = new Miniflare(this.options())
        await this.mf.ready
      } else {
        await this.mf.setOptions(this.options())
        this.restarts++
      }
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

  /** Runs `work` with a database's D1 binding (the API's queries and the served Workers share it). */
  withDatabase<T>(id: string, work: (db: D1Database) => Promise<T>): Promise<T> {
    return this.hold(
      () => this.databases.includes(id),
      () => {
        if (!this.databases.includes(id)) this.databases.push(id)
        return () => {}
      },
      async (mf) =>
        work((await mf.getD1Database(`DB_${this.databases.indexOf(id)}`, D1_WORKER)) as unknown as D1Database),
    )
  }

  /**
   * Runs `work` with the address of a served build's Worker (started if need be). Its socket takes
   * proxy-style requests (`GET https://host/path`), so the Worker sees the URL the client asked for;
   * a Worker with assets answers there through Miniflare's assets router, as on Cloudflare (assets
   * first, then the Worker). workerd is not restarted while `work` runs.
   */
  withWorker<T>(target: RunTarget, work: (address: URL, mf: Miniflare) => Promise<T>): Promise<T> {
    return this.hold(
      () => this.targets.has(target.key),
      () => {
        for (const binding of target.build.bindings) {
          if (binding.type === 'd1' && !this.databases.includes(String(binding.id))) {
            this.databases.push(String(binding.id))
          }
        }
        const options = this.workerOptions(target)
        const idle = [...this.targets.keys()].sort((a, b) => (this.lastUsed.get(a) ?? 0) - (this.lastUsed.get(b) ?? 0))
        while (idle.length >= MAX_RUNNING) this.targets.delete(idle.shift() as string)
        this.targets.set(target.key, options)
        return () => this.targets.delete(target.key)
      },
      async (mf) => {
        this.lastUsed.set(target.key, Date.now())
        return work(await mf.unsafeGetDirectURL(target.key), mf)
      },
    )
  }

  /** Starts a build's Worker ahead of its first request (as a new version reaches Cloudflare's edge). */
  warm(target: RunTarget): void {
    this.withWorker(target, async () => undefined).catch(() => {
      // A build that cannot run says why on its first request.
    })
  }

  /** Runs the build's scheduled handler once, as a Cron Trigger does. */
  scheduled(target: RunTarget, cron: string): Promise<{ outcome: string }> {
    return this.withWorker(target, async (_address, mf) => {
      const worker = (await mf.getWorker(target.key)) as unknown as {
        scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>
      }
      return worker.scheduled({ cron, scheduledTime: new Date() })
    })
  }

  private workerOptions(target: RunTarget): Record<string, unknown> {
    const { build, key } = target
    const root = join(this.dir, 'builds', key)
    const bindings: Record<string, unknown> = {}
    const d1Databases: Record<string, string> = {}
    const ratelimits: Record<string, unknown> = {}
    const sendEmail: Record<string, unknown>[] = []
    let assetsBinding: string | undefined
    let versionMetadata: string | undefined
    for (const binding of build.bindings) {
      switch (binding.type) {
        case 'plain_text':
        case 'secret_text':
          bindings[binding.name] = binding.text ?? ''
          break
        case 'json':
          bindings[binding.name] = binding.json
          break
        case 'd1':
          d1Databases[binding.name] = String(binding.id)
          break
        case 'ratelimit':
          ratelimits[binding.name] = { namespace_id: String(binding.namespace_id), simple: binding.simple }
          break
        case 'send_email':
          sendEmail.push({
            name: binding.name,
            ...(binding.destination_address ? { destination_address: binding.destination_address } : {}),
            ...(binding.allowed_destination_addresses
              ? { allowed_destination_addresses: binding.allowed_destination_addresses }
              : {}),
            ...(binding.allowed_sender_addresses ? { allowed_sender_addresses: binding.allowed_sender_addresses } : {}),
          })
          break
        case 'assets':
          assetsBinding = binding.name
          break
        case 'version_metadata':
          versionMetadata = binding.name
          break
        default:
          throw new Error(
            `The stand-in cannot run a binding of type "${binding.type}" (${binding.name}); add it to tests/support/cloudflare/runtime.ts`,
          )
      }
    }
    const modules = build.modules.flatMap((module) => {
      const type = moduleType(module.contentType)
      if (!type) return []
      const path = join(root, 'modules', module.name)
      return [{ type, path, contents: module.content }]
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
      name: key,
      modules,
      modulesRoot: join(root, 'modules'),
      compatibilityDate: build.compatibilityDate,
      compatibilityFlags: build.compatibilityFlags,
      bindings,
      d1Databases,
      ratelimits,
      ...(sendEmail.length > 0 ? { email: { send_email: sendEmail } } : {}),
      ...(versionMetadata ? { versionMetadata } : {}),
      ...(assets ? { assets } : {}),
      outboundService: (request: Request) => this.outbound(request),
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0, proxy: true }],
    }
  }

  get runningWorkers(): string[] {
    return [...this.targets.keys()]
  }

  async dispose(): Promise<void> {
    await this.chain
    await this.mf?.dispose()
    this.mf = undefined
  }
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
