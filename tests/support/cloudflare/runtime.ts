/**
 * Runs what was uploaded to one account: one Miniflare (one workerd) holds every D1 database of the
 * account and runs each uploaded build. One process, because a D1 database is a SQLite file owned by
 * workerd: the API's queries must go through the same workerd's D1 binding as the served Worker's,
 * or the two would not see each other's writes (and could corrupt the file).
 *
 * One workerd Worker a build, not a version: its entry module (runtime-build.ts) builds the answering
 * version's env from a header the edge adds and from the account-wide bindings it holds, and calls
 * the uploaded handler inside `withEnv`. Adding a Worker or a database restarts workerd (about a
 * second); a new version of a running build restarts nothing. Versions of one build share module
 * state, which Cloudflare keeps per version (README.md, "What the stand-in had to guess").
 */
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import { D1_SCRIPT, d1Over } from './d1.ts'
import type { Binding } from './model.ts'
import {
  buildKey,
  buildWorkerOptions,
  ENV_HEADER,
  emailKey,
  emailOptions,
  type RunTarget,
  rateLimitKey,
  SCHEDULED_HEADER,
} from './runtime-build.ts'

export type { RunTarget }

type OutboundHandler = (request: Request) => Promise<Response>

const D1_WORKER = 'standin-d1'
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
      }
      this.started = snapshot
    } finally {
      this.restarting = false
    }
  }

  /** Runs `work` once `ready()` holds (after `change()` and a restart if not), with no restart meanwhile. */
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
            // A Worker that cannot start must not stop the rest: workerd comes back without it.
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
      async (mf) => work(d1Over(mf, D1_WORKER, `DB_${this.databases.indexOf(id)}`) as unknown as D1Database),
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
    const slotOf: Record<string, (b: Binding) => string | undefined> = {
      d1: (b) => `D1_${this.databases.indexOf(String(b.id))}`,
      ratelimit: (b) => this.rateLimits.get(rateLimitKey(b))?.slot,
      send_email: (b) => this.emails.get(emailKey(b))?.slot,
      assets: (b) => b.name,
    }
    for (const binding of target.build.bindings) {
      const { name, type } = binding
      if (type === 'plain_text' || type === 'secret_text') values.push([name, binding.text ?? ''])
      else if (type === 'json') values.push([name, binding.json])
      else if (type === 'version_metadata') metadata = [name, target.metadata]
      else if (slotOf[type]) slots.push([name, slotOf[type](binding) as string])
      else throw new Error(`The stand-in cannot run a binding of type "${type}" (${name}); add it to runtime.ts`)
    }
    return Buffer.from(JSON.stringify({ values, slots, metadata }), 'utf8').toString('base64')
  }

  /**
   * Runs `work` with the address of the Worker running the target's build (started if need be) and
   * the header that makes it answer as the target. Its socket takes proxy-style requests, so the
   * Worker sees the client's URL; Miniflare's assets router answers first, as on Cloudflare.
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
        this.workers.set(key, {
          key,
          name: `build-${key.slice(0, 16)}`,
          options: buildWorkerOptions(this.dir, target, key, (request) => this.outbound(request)),
        })
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

  async dispose(): Promise<void> {
    await this.chain
    await this.mf?.dispose()
    this.mf = undefined
  }
}
