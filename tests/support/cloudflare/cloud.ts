/**
 * The stand-in Cloudflare, with as many accounts as its clients ask for: one REST API for all of
 * them (an account's calls are told apart by the account id in the path, or by the token), and for
 * each account its own edge (an HTTPS proxy serving that account's workers.dev and custom domains)
 * and its own runtime (one workerd, holding its databases and running its builds). Run as one
 * process for every drill (server.ts), or inside a test's process (index.ts, startCloudflare).
 * README.md says what it serves and what it guesses.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSecureContext, type SecureContext } from 'node:tls'
import { type ApiRequestRecord, handleApi } from './api.ts'
import { runQuery } from './d1.ts'
import { type Edge, startEdge } from './edge.ts'
import { readBody, sendJson } from './http.ts'
import {
  Account,
  type Binding,
  type Build,
  type CustomDomain,
  FULL_SCOPE,
  type PreviewDeployment,
  type TokenScope,
  type Version,
  type Worker,
} from './model.ts'
import { type RunTarget, Runtime } from './runtime.ts'
import { type CertificateAuthority, createAuthority } from './tls.ts'
import {
  type AccountOptions,
  type BreakRule,
  type DeploymentView,
  type DomainView,
  type EdgeRecord,
  type Fault,
  fromWire,
  type Pattern,
  type PreviewView,
  type UnknownRequest,
  type VersionView,
  type WirePattern,
  type WorkerView,
} from './types.ts'

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** Header carrying a served Worker's outbound request's own URL to the client's outbound handler. */
export const OUTBOUND_URL_HEADER = 'x-standin-outbound-url'

/** What a client needs to use one account. */
export interface AccountInfo {
  accountId: string
  tokens: Record<string, string>
  subdomain: string | undefined
  apiUrl: string
  proxyUrl: string
  caFile: string
  caPem: string
  env: Record<string, string>
}

const matches = (pattern: Pattern | undefined, text: string, suffix = false) =>
  pattern === undefined
    ? true
    : typeof pattern === 'string'
      ? suffix
        ? text.endsWith(pattern)
        : text.includes(pattern)
      : pattern.test(text)

/** One account: its model, tokens, edge, runtime, and what was asked of it. */
export class AccountHost {
  readonly account: Account
  readonly tokens = new Map<string, TokenScope>()
  readonly runtime: Runtime
  edge!: Edge
  readonly unknown: UnknownRequest[] = []
  readonly apiLog: ApiRequestRecord[] = []
  readonly edgeLog: EdgeRecord[] = []
  readonly faults: { method: string; path: Pattern; fault: Required<Fault> }[] = []
  readonly brokenRules: BreakRule[] = []
  /** Where served Workers' outbound fetches go: a client's handler, by URL. */
  outboundUrl: string | undefined
  /** Access in front of whole Workers, by Worker name. */
  readonly access = new Map<string, { clientId: string; clientSecret: string; teamDomain: string }>()
  private readonly cloud: Cloud
  readonly dir: string

  constructor(cloud: Cloud, options: AccountOptions) {
    this.cloud = cloud
    this.dir = mkdtempSync(join(cloud.dir, 'account-'))
    const accountId = options.accountId ?? randomBytes(16).toString('hex')
    this.account = new Account({
      accountId,
      accountName: options.accountName ?? 'Stand-in account',
      email: 'operator@stand-in.example',
      subdomain: options.subdomain === null ? undefined : (options.subdomain ?? 'stand-in'),
      zones: (options.zones ?? []).map((z, i) => ({
        id: `zone${String(i + 1).padStart(28, '0')}`,
        name: z.name,
        dnsRecords: [...(z.dnsRecords ?? [])],
      })),
      certificateDelayMs: options.certificateDelayMs ?? 0,
      // One second: every deploy's smoke test still sees the old version first and waits for the
      // new one (its 2-s pause once, where 3 s cost it two); drills of that wait set a longer one.
      propagationMs: options.propagationMs ?? 1000,
      // Then two seconds of requests taking turns between the old and the new deployment.
      rolloutMs: options.rolloutMs ?? 2000,
      pageSize: options.pageSize ?? 100,
    })
    for (const db of options.databases ?? []) {
      this.account.d1.set(db.uuid, { uuid: db.uuid, name: db.name, createdAt: new Date().toISOString() })
    }
    const scopes = options.tokens ?? { operator: {} }
    for (const [name, scope] of Object.entries(scopes)) {
      this.tokens.set(`stand-in-${name}-${randomBytes(8).toString('hex')}`, { ...FULL_SCOPE, ...scope, name })
    }
    this.runtime = new Runtime(join(this.dir, 'runtime'), (request) => this.outbound(request))
  }

  get accountId(): string {
    return this.account.options.accountId
  }

  private async outbound(request: Request): Promise<Response> {
    if (this.outboundUrl) {
      const headers = new Headers(request.headers)
      headers.set(OUTBOUND_URL_HEADER, request.url)
      return fetch(this.outboundUrl, {
        method: request.method,
        headers,
        body: request.body,
        duplex: 'half',
      } as RequestInit)
    }
    const url = new URL(request.url)
    if (['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return fetch(request)
    this.unknown.push({ kind: 'outbound', method: request.method, path: request.url, detail: 'no outbound handler' })
    return new Response('The stand-in has no outbound handler for this URL (control.setOutbound)', { status: 502 })
  }

  // ── Routing: which build answers a host ──────────────────────────────────────────────────

  isBroken(build: Version | PreviewDeployment, path?: string): boolean {
    return this.brokenRules.some((rule) => {
      if (path !== undefined && rule.paths !== undefined && !matches(rule.paths, path)) return false
      if (rule.ids?.includes(build.id)) return true
      const message = build.annotations['workers/message']
      if (rule.message !== undefined && message !== undefined && matches(rule.message, message)) return true
      if (rule.vars) {
        const vars = varsOf(build)
        if (Object.entries(rule.vars).every(([k, v]) => vars[k] === v)) return true
      }
      return false
    })
  }

  runTarget(build: Version | PreviewDeployment): RunTarget {
    return {
      build,
      metadata: { id: build.id, tag: build.annotations['workers/tag'] ?? '', timestamp: build.createdOn },
      asset: (hash: string) => this.account.assetStore.get(hash)?.content,
    }
  }

  /** What serves `host`; `answer`: for one request (during a rollout, old and new take turns). */
  routeHost(host: string, answer = false): Route {
    const account = this.account
    const turn = <T extends { createdOn: string }>(all: T[], served: T | undefined) =>
      answer ? account.answeringDeployment(all, served) : served
    const sub = account.subdomainHost
    const domain = account.domains.find((d) => d.hostname === host)
    if (domain) {
      const target = account.workers.get(domain.service)
      const deployment = target && turn(target.deployments, account.servedDeployment(target))
      if (!domain.enabled) return { kind: 'none', status: 404, reason: `${host} is not enabled for production` }
      if (!target || !deployment) return { kind: 'none', status: 522, reason: `${host} has no deployment` }
      return { kind: 'version', worker: target, choices: this.choicesOf(target, deployment) }
    }
    if (!sub || !host.endsWith(`.${sub}`)) return { kind: 'none', status: 530, reason: `no route for ${host}` }
    const label = host.slice(0, -sub.length - 1)
    const exact = account.workers.get(label)
    if (exact) {
      const deployment = turn(exact.deployments, account.servedDeployment(exact))
      if (!exact.workersDev) return { kind: 'none', status: 404, reason: `workers.dev is off for ${label}` }
      if (!deployment) return { kind: 'none', status: 404, reason: `${label} has no deployment` }
      return { kind: 'version', worker: exact, choices: this.choicesOf(exact, deployment) }
    }
    for (const candidate of account.workers.values()) {
      if (!label.endsWith(`-${candidate.name}`)) continue
      const prefix = label.slice(0, -candidate.name.length - 1)
      if (!candidate.previewsEnabled)
        return { kind: 'none', status: 404, reason: `Preview URLs are off for ${candidate.name}` }
      const preview = candidate.previews.find((p) => p.slug === prefix)
      if (preview) {
        const served = turn(preview.deployments, account.servedPreviewDeployment(preview))
        if (!served) return { kind: 'none', status: 404, reason: `Preview ${preview.name} has no deployment` }
        return { kind: 'preview', worker: candidate, deployment: served }
      }
      const version =
        candidate.versions.find((v) => v.annotations['workers/alias'] === prefix) ??
        (/^[0-9a-f]{8}$/.test(prefix) ? candidate.versions.find((v) => v.id.startsWith(prefix)) : undefined)
      if (version) return { kind: 'version', worker: candidate, choices: [{ version, percentage: 100 }] }
      for (const p of candidate.previews) {
        const deployment = p.deployments.find((d) => d.id.startsWith(prefix))
        if (deployment && /^[0-9a-f]{8}$/.test(prefix)) return { kind: 'preview', worker: candidate, deployment }
      }
    }
    return { kind: 'none', status: 404, reason: `nothing is deployed at ${host}` }
  }

  choicesOf(target: Worker, deployment: { versions: { version_id: string; percentage: number }[] }) {
    return deployment.versions.map((v) => ({
      version: this.account.version(target, v.version_id),
      percentage: v.percentage,
    }))
  }

  /** The Worker a host belongs to (for Access), whatever serves it now. */
  private workerOfHost(host: string): string | undefined {
    const domain = this.account.domains.find((d) => d.hostname === host)
    if (domain) return domain.service
    const sub = this.account.subdomainHost
    if (!sub || !host.endsWith(`.${sub}`)) return undefined
    const label = host.slice(0, -sub.length - 1)
    if (this.account.workers.has(label)) return label
    return [...this.account.workers.keys()]
      .filter((name) => label.endsWith(`-${name}`))
      .sort((a, b) => b.length - a.length)[0]
  }

  async edgeHandler(req: IncomingMessage, res: ServerResponse, scheme: 'https' | 'http'): Promise<void> {
    const host = String(req.headers.host ?? '')
      .replace(/:\d+$/, '')
      .toLowerCase()
    const url = `${scheme}://${host}${req.url ?? '/'}`
    const at = new Date().toISOString()
    const method = req.method ?? 'GET'
    const reply = (status: number, headers: Record<string, string>, body: string, servedBy: EdgeRecord['servedBy']) => {
      res.writeHead(status, { server: 'cloudflare', 'cf-ray': `${randomBytes(8).toString('hex')}-SIN`, ...headers })
      res.end(body)
      this.edgeLog.push({ at, method, url, status, servedBy })
    }

    const guarded = this.workerOfHost(host)
    const access = guarded ? this.access.get(guarded) : undefined
    if (access) {
      const id = req.headers['cf-access-client-id']
      const secret = req.headers['cf-access-client-secret']
      if (id !== access.clientId || secret !== access.clientSecret) {
        const login = `https://${access.teamDomain}/cdn-cgi/access/login/${host}?redirect_url=${encodeURIComponent(req.url ?? '/')}`
        return reply(302, { location: login, 'content-type': 'text/html' }, `<a href="${login}">Sign in</a>`, {
          kind: 'none',
          reason: 'Cloudflare Access: no valid service token',
        })
      }
    }

    const route = this.routeHost(host, true)
    if (route.kind === 'none') {
      return reply(
        route.status,
        { 'content-type': 'text/html' },
        `<!doctype html><title>There is nothing here yet</title><p>${route.reason}</p>`,
        { kind: 'none', reason: route.reason },
      )
    }
    const build: Version | PreviewDeployment = route.kind === 'version' ? pick(route.choices) : route.deployment
    const servedBy = { kind: build.kind, id: build.id, worker: route.worker.name } as const
    if (this.isBroken(build, new URL(url).pathname)) {
      return reply(
        500,
        { 'content-type': 'text/plain' },
        'This version fails on purpose (stand-in control.breakVersions).',
        servedBy,
      )
    }

    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('cf-access-client-')) continue
      headers[name] = value
    }
    headers['cf-connecting-ip'] = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1'
    headers['x-forwarded-proto'] = scheme
    try {
      await this.runtime.withWorker(
        this.runTarget(build),
        (endpoint, [envHeader, envValue]) =>
          new Promise<void>((resolve) => {
            const upstream = httpRequest(
              {
                host: endpoint.hostname,
                port: endpoint.port,
                method,
                path: url,
                headers: { ...headers, [envHeader]: envValue },
              },
              (answer) => {
                const out = { ...answer.headers }
                delete out.connection
                delete out['keep-alive']
                res.writeHead(answer.statusCode ?? 502, { server: 'cloudflare', ...out })
                answer.pipe(res)
                answer.on('end', () => {
                  this.edgeLog.push({ at, method, url, status: answer.statusCode ?? 502, servedBy })
                  resolve()
                })
                answer.on('error', () => resolve())
              },
            )
            upstream.on('error', (error) => {
              if (!res.headersSent)
                reply(502, { 'content-type': 'text/plain' }, `stand-in edge: ${error.message}`, servedBy)
              else res.destroy()
              resolve()
            })
            res.on('close', () => resolve())
            req.pipe(upstream)
          }),
      )
    } catch (error) {
      if (!res.headersSent)
        reply(500, { 'content-type': 'text/plain' }, `stand-in edge: ${(error as Error).message}`, servedBy)
    }
  }

  async startEdge(): Promise<void> {
    const serves = (hostname: string) =>
      hostname.endsWith('.workers.dev') || this.account.domains.some((d) => d.hostname === hostname)
    this.edge = await startEdge({
      serves,
      secureContext: (hostname) => {
        const domain = this.account.domains.find((d) => d.hostname === hostname)
        if (domain) return Date.now() >= domain.certificateReadyAt ? this.cloud.contextFor([hostname]) : undefined
        const sub = this.account.subdomainHost
        if (sub && hostname.endsWith(`.${sub}`) && hostname.split('.').length === sub.split('.').length + 1) {
          return this.cloud.contextFor([`*.${sub}`])
        }
        if (hostname.endsWith('.workers.dev')) return this.cloud.contextFor([hostname])
        return undefined
      },
      handle: (req, res, scheme) => {
        this.edgeHandler(req, res, scheme).catch((error) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
          res.end(`stand-in edge: ${(error as Error).message}`)
        })
      },
      refused: (method, target) => {
        this.unknown.push({ kind: 'edge', method, path: target, detail: 'not a stand-in host (tests run offline)' })
      },
    })
  }

  apiContext() {
    return {
      account: this.account,
      tokens: this.tokens,
      withD1: <T>(id: string, work: (db: D1Database) => Promise<T>) => this.runtime.withDatabase(id, work),
      warm: (build: Version | PreviewDeployment) => this.runtime.warm(this.runTarget(build)),
      baseUrl: () => this.cloud.apiBase,
      takeFault: (method: string, path: string) => {
        const index = this.faults.findIndex((f) => f.method === method && matches(f.path, path, true))
        if (index < 0) return undefined
        return this.faults.splice(index, 1)[0]?.fault
      },
      record: (entry: ApiRequestRecord) => {
        this.apiLog.push(entry)
        if (entry.unknown)
          this.unknown.push({ kind: 'api', method: entry.method, path: entry.path, detail: entry.error })
      },
    }
  }

  // ── Views ────────────────────────────────────────────────────────────────────────────────

  private sub() {
    return this.account.subdomainHost
  }

  versionView(target: Worker, v: Version): VersionView {
    const sub = this.sub()
    return {
      id: v.id,
      number: v.number,
      message: v.annotations['workers/message'],
      tag: v.annotations['workers/tag'],
      triggeredBy: v.annotations['workers/triggered_by'],
      createdOn: v.createdOn,
      vars: varsOf(v),
      secretNames: v.bindings.filter((b) => b.type === 'secret_text').map((b) => b.name),
      bindings: v.bindings.map(withoutSecret),
      compatibilityDate: v.compatibilityDate,
      previewUrl: target.previewsEnabled && sub ? `https://${v.id.slice(0, 8)}-${target.name}.${sub}` : undefined,
      broken: this.isBroken(v),
    }
  }

  workerView(target: Worker): WorkerView {
    const latest = this.account.latestVersion(target)
    const current = this.account.currentDeployment(target)
    const sub = this.sub()
    return {
      name: target.name,
      workersDev: target.workersDev,
      previewsEnabled: target.previewsEnabled,
      url: target.workersDev && sub ? `https://${target.name}.${sub}` : undefined,
      schedules: target.schedules.map((s) => s.cron),
      latestVersion: latest && this.versionView(target, latest),
      deployment: current && deploymentView(current),
      versions: target.versions.map((v) => this.versionView(target, v)),
      deployments: target.deployments.map(deploymentView),
      settings: { ...target.settings },
    }
  }

  private domainView(d: CustomDomain): DomainView {
    const ready = Date.now() >= d.certificateReadyAt
    const target = this.account.workers.get(d.service)
    return {
      hostname: d.hostname,
      worker: d.service,
      zone: d.zoneName,
      certificateReady: ready,
      answers: ready && Boolean(target && this.account.currentDeployment(target)),
      replacedDnsRecord: d.replacedDnsRecord,
    }
  }

  /** The calls a client may make, by name ("state.worker", "control.breakVersions", …). */
  readonly calls: Record<string, (...args: never[]) => unknown> = {
    'state.workers': () => [...this.account.workers.values()].map((w) => this.workerView(w)),
    'state.worker': (name: string) => this.workerView(this.account.worker(name)),
    'state.servingAt': (url: string) => {
      const route = this.routeHost(new URL(url).hostname)
      if (route.kind === 'none') return { kind: 'none', ids: [], reason: route.reason }
      if (route.kind === 'preview') return { kind: 'preview', ids: [{ id: route.deployment.id, percentage: 100 }] }
      return { kind: 'version', ids: route.choices.map((c) => ({ id: c.version.id, percentage: c.percentage })) }
    },
    'state.previews': (workerName: string): PreviewView[] => {
      const target = this.account.worker(workerName)
      const sub = this.sub()
      return target.previews.map((p) => ({
        id: p.id,
        name: p.name,
        slug: p.slug,
        url: target.previewsEnabled && sub ? `https://${p.slug}-${target.name}.${sub}` : undefined,
        deployments: p.deployments.map((d) => ({
          id: d.id,
          url: target.previewsEnabled && sub ? `https://${d.id.slice(0, 8)}-${target.name}.${sub}` : undefined,
          message: d.annotations['workers/message'],
          vars: varsOf(d),
          secretNames: d.bindings.filter((b) => b.type === 'secret_text').map((b) => b.name),
          bindings: d.bindings.map(withoutSecret),
        })),
      }))
    },
    'state.databases': () => [...this.account.d1.values()].map((d) => ({ uuid: d.uuid, name: d.name })),
    'state.query': async (database: string, sql: string, ...params: unknown[]) => {
      const db = this.account.database(database)
      const results = await this.runtime.withDatabase(db.uuid, (d1) => runQuery(d1, sql, params))
      return results.at(-1)?.results ?? []
    },
    'state.customDomains': () => this.account.domains.map((d) => this.domainView(d)),
    'state.secretValue': (workerName: string, versionId: string, name: string) => {
      const target = this.account.worker(workerName)
      return this.account.version(target, versionId).bindings.find((b) => b.name === name && b.type === 'secret_text')
        ?.text
    },
    'state.edgeRequests': () => [...this.edgeLog],
    'state.apiRequests': () => [...this.apiLog],
    'state.logs': () => [...this.runtime.logLines],
    'state.sentEmails': () =>
      this.runtime.logLines
        .filter((line) => line.includes('send_email binding called'))
        .flatMap((line) => [...line.matchAll(/^(?:Email|Text|HTML): (.+)$/gm)].map((m) => (m[1] ?? '').trim()))
        .map((file) => ({ file, content: existsSync(file) ? readFileSync(file, 'utf8') : '' })),
    'control.breakVersions': (rule: {
      message?: WirePattern
      vars?: Record<string, string>
      ids?: string[]
      paths?: WirePattern
    }) =>
      void this.brokenRules.push({
        ...rule,
        message: rule.message === undefined ? undefined : fromWire(rule.message),
        paths: rule.paths === undefined ? undefined : fromWire(rule.paths),
      }),
    'control.clearBrokenVersions': () => void this.brokenRules.splice(0),
    'control.setCertificateDelay': (ms: number) => {
      this.account.options.certificateDelayMs = ms
    },
    'control.issueCertificates': () => {
      for (const d of this.account.domains) d.certificateReadyAt = Math.min(d.certificateReadyAt, Date.now())
    },
    'control.setPropagation': (ms: number) => {
      this.account.options.propagationMs = ms
    },
    'control.setRollout': (ms: number) => {
      this.account.options.rolloutMs = ms
    },
    'control.protectWorker': (
      worker: string,
      token: { clientId: string; clientSecret: string; teamDomain?: string } | null,
    ) => {
      if (token) this.access.set(worker, { teamDomain: 'stand-in.cloudflareaccess.com', ...token })
      else this.access.delete(worker)
    },
    'control.setOutbound': (url: string | null) => {
      this.outboundUrl = url ?? undefined
    },
    'control.failNext': (method: string, path: WirePattern, fault: Fault = {}) =>
      void this.faults.push({
        method,
        path: fromWire(path),
        fault: {
          status: fault.status ?? 500,
          code: fault.code ?? 10013,
          message: fault.message ?? 'Injected failure',
          retryAfter: fault.retryAfter ?? 0,
        },
      }),
    'control.runScheduled': async (workerName: string, cron?: string) => {
      const target = this.account.worker(workerName)
      const schedule = cron ?? target.schedules[0]?.cron
      if (!schedule || !target.schedules.some((s) => s.cron === schedule)) {
        throw new Error(`${workerName} has no Cron Trigger ${cron ?? ''}`.trim())
      }
      const deployment = this.account.currentDeployment(target)
      if (!deployment) throw new Error(`${workerName} has no deployment`)
      const version = pick(this.choicesOf(target, deployment))
      const result = await this.runtime.scheduled(this.runTarget(version), schedule)
      return { versionId: version.id, outcome: result.outcome }
    },
    'control.adopt': (options: {
      from: string
      worker: string
      databases?: Record<string, string>
      secrets: Record<string, string>
      message: string
    }) => this.adopt(options),
    'control.release': (options: { worker: string; message: string; vars?: Record<string, string | null> }) =>
      this.release(options),
    'control.createWorker': (name: string, settings: { workersDev: boolean; previewsEnabled: boolean }) =>
      void this.account.createWorker(name, settings.workersDev, settings.previewsEnabled),
    unknownRequests: () => [...this.unknown],
  }

  /** control.adopt: copies another account's databases (schema and migrations) and its Worker's serving version. */
  private async adopt(options: {
    from: string
    worker: string
    databases?: Record<string, string>
    secrets: Record<string, string>
    message: string
  }): Promise<{ databases: Record<string, string>; version: string }> {
    const source = this.cloud.account(options.from)
    const ids = new Map<string, string>()
    const databases: Record<string, string> = {}
    for (const db of source.account.d1.values()) {
      const uuid = options.databases?.[db.name] ?? crypto.randomUUID()
      this.account.d1.set(uuid, { uuid, name: db.name, createdAt: new Date().toISOString() })
      ids.set(db.uuid, uuid)
      databases[db.name] = uuid
    }
    this.runtime.knowDatabases([...ids.values()])
    for (const [from, to] of ids) {
      const schema = await source.runtime.withDatabase(from, (d1) =>
        runQuery(
          d1,
          "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY rowid",
          [],
        ),
      )
      const statements = (schema[0]?.results ?? []).map((r) => String(r.sql))
      if (statements.length === 0) continue
      const migrations = await source.runtime.withDatabase(from, (d1) =>
        runQuery(d1, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'", []),
      )
      const applied =
        (migrations[0]?.results.length ?? 0) > 0
          ? await source.runtime.withDatabase(from, (d1) =>
              runQuery(d1, 'SELECT id, name, applied_at FROM d1_migrations', []),
            )
          : []
      await this.runtime.withDatabase(to, async (d1) => {
        await runQuery(d1, statements.map((s) => `${s};`).join('\n'), undefined)
        for (const row of applied[0]?.results ?? []) {
          await runQuery(d1, 'INSERT INTO d1_migrations (id, name, applied_at) VALUES (?, ?, ?)', [
            row.id,
            row.name,
            row.applied_at,
          ])
        }
      })
    }
    const template = source.account.worker(options.worker)
    const served = source.account.currentDeployment(template)?.versions[0]?.version_id
    const version = served ? source.account.version(template, served) : undefined
    if (!version) throw new Error(`${options.from} has no version of ${options.worker} serving`)
    for (const [hash, asset] of source.account.assetStore) this.account.assetStore.set(hash, asset)
    const target = this.account.createWorker(options.worker, template.workersDev, template.previewsEnabled)
    target.schedules = template.schedules.map((s) => ({ ...s }))
    target.settings = structuredClone(template.settings)
    const bindings: Binding[] = version.bindings
      .filter((b) => b.type !== 'secret_text')
      .map((b) => (b.type === 'd1' ? { ...b, id: ids.get(String(b.id)) ?? b.id } : { ...b }))
    for (const [name, text] of Object.entries(options.secrets)) bindings.push({ name, type: 'secret_text', text })
    const copy: Version = {
      ...version,
      id: crypto.randomUUID(),
      number: 1,
      workerName: target.name,
      createdOn: new Date().toISOString(),
      annotations: { 'workers/message': options.message, 'workers/triggered_by': 'upload' },
      hasPreview: target.previewsEnabled,
      bindings,
    }
    target.versions.push(copy)
    // The first deployment of a Worker answers at once (nothing was served before it).
    this.account.createDeployment(target, { versions: [{ version_id: copy.id, percentage: 100 }] }, 'upload')
    this.runtime.warm(this.runTarget(copy))
    return { databases, version: copy.id }
  }

  /** control.release: a new version of the latest upload with vars changed, deployed at 100% (as `wrangler deploy`). */
  private release(options: { worker: string; message: string; vars?: Record<string, string | null> }): {
    version: string
  } {
    const worker = this.account.worker(options.worker)
    const env = Object.fromEntries(
      Object.entries(options.vars ?? {}).map(([name, text]) => [
        name,
        text === null ? null : { name, type: 'plain_text', text },
      ]),
    )
    const version = this.account.patchLatestVersion(worker, env, { 'workers/message': options.message }, 'upload')
    this.account.createDeployment(worker, { versions: [{ version_id: version.id, percentage: 100 }] }, 'upload')
    this.runtime.warm(this.runTarget(version))
    return { version: version.id }
  }

  info(): AccountInfo {
    const [first] = this.tokens.keys()
    const env: Record<string, string> = {
      ...this.cloud.childEnv(),
      CLOUDFLARE_API_BASE_URL: `${this.cloud.apiBase}/client/v4`,
      CLOUDFLARE_ACCOUNT_ID: this.accountId,
      CLOUDFLARE_API_TOKEN: first as string,
      HTTPS_PROXY: this.edge.url,
      HTTP_PROXY: this.edge.url,
    }
    return {
      accountId: this.accountId,
      tokens: Object.fromEntries([...this.tokens].map(([token, scope]) => [scope.name, token])),
      subdomain: this.account.options.subdomain,
      apiUrl: `${this.cloud.apiBase}/client/v4`,
      proxyUrl: this.edge.url,
      caFile: this.cloud.authority.caFile,
      caPem: this.cloud.authority.caPem,
      env,
    }
  }

  async stop(): Promise<void> {
    await this.runtime.dispose()
    await this.edge?.close()
    rmSync(this.dir, { recursive: true, force: true })
  }
}

type Route =
  | { kind: 'version'; worker: Worker; choices: { version: Version; percentage: number }[] }
  | { kind: 'preview'; worker: Worker; deployment: PreviewDeployment }
  | { kind: 'none'; status: number; reason: string }

function pick(choices: { version: Version; percentage: number }[]): Version {
  let roll = Math.random() * 100
  for (const choice of choices) {
    roll -= choice.percentage
    if (roll < 0) return choice.version
  }
  return (choices.at(-1) as { version: Version }).version
}

function deploymentView(d: Worker['deployments'][number]): DeploymentView {
  return {
    id: d.id,
    createdOn: d.createdOn,
    message: d.annotations['workers/message'],
    triggeredBy: d.annotations['workers/triggered_by'],
    versions: d.versions.map((v) => ({ id: v.version_id, percentage: v.percentage })),
  }
}

function varsOf(build: Build): Record<string, unknown> {
  return Object.fromEntries(
    build.bindings
      .filter((b) => b.type === 'plain_text' || b.type === 'json')
      .map((b) => [b.name, b.type === 'json' ? b.json : b.text]),
  )
}

function withoutSecret(binding: Binding): Binding {
  if (binding.type !== 'secret_text') return { ...binding }
  const { text: _text, ...rest } = binding
  return rest as Binding
}

/** Every account, the API they share, and the certificate authority of their edges. */
export class Cloud {
  readonly dir: string
  readonly authority: CertificateAuthority
  private readonly accounts = new Map<string, AccountHost>()
  private readonly contexts = new Map<string, SecureContext>()
  private readonly api = createServer((req, res) => {
    this.handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String((error as Error).stack ?? error))
    })
  })
  apiBase = ''
  private childTmp = ''

  constructor(dir: string) {
    this.dir = dir
    this.authority = createAuthority(join(dir, 'tls'))
  }

  contextFor(names: string[]): SecureContext {
    const key = names.join(',')
    let context = this.contexts.get(key)
    if (!context) {
      context = createSecureContext(this.authority.issue(names))
      this.contexts.set(key, context)
    }
    return context
  }

  account(id: string): AccountHost {
    const host = this.accounts.get(id)
    if (!host) throw new Error(`The stand-in has no account ${id}`)
    return host
  }

  async start(): Promise<void> {
    // The API never closes an idle keep-alive connection itself (Node's default closes it after
    // 5 s): wrangler's fetch reuses idle sockets, and on a busy machine it can pick one up just as
    // a server closes it, which fails that call with "fetch failed". Clients close them.
    this.api.keepAliveTimeout = 0
    await new Promise<void>((resolve) => this.api.listen(0, '127.0.0.1', () => resolve()))
    this.apiBase = `http://127.0.0.1:${(this.api.address() as AddressInfo).port}`
    // wrangler checks npm for a newer version of itself, with a cache in os.tmpdir(). Children get a
    // TMPDIR whose cache says the pinned version is the latest, so no run reaches the registry (an
    // update check is no part of any procedure, and the tests run offline).
    this.childTmp = join(this.dir, 'tmp')
    mkdirSync(join(this.childTmp, 'update-check'), { recursive: true })
    const wranglerVersion = (
      JSON.parse(readFileSync(new URL('../../../node_modules/wrangler/package.json', import.meta.url), 'utf8')) as {
        version: string
      }
    ).version
    writeFileSync(
      join(this.childTmp, 'update-check', 'wrangler-latest.json'),
      JSON.stringify({ latest: wranglerVersion, lastUpdate: Date.now() + 365 * 24 * 3600 * 1000 }),
    )
  }

  /** The environment every child needs, whatever its account. */
  childEnv(): Record<string, string> {
    return {
      TMPDIR: this.childTmp,
      NO_PROXY: '127.0.0.1,localhost,::1',
      NODE_USE_ENV_PROXY: '1',
      NODE_EXTRA_CA_CERTS: this.authority.caFile,
      // curl, as the runbook's checks use it (`curl -s https://<domain>/api/health`).
      CURL_CA_BUNDLE: this.authority.caFile,
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_SEND_METRICS: 'false',
    }
  }

  async createAccount(options: AccountOptions): Promise<AccountHost> {
    const host = new AccountHost(this, options)
    if (this.accounts.has(host.accountId)) throw new Error(`account ${host.accountId} exists already`)
    await host.startEdge()
    this.accounts.set(host.accountId, host)
    return host
  }

  async removeAccount(id: string): Promise<void> {
    const host = this.accounts.get(id)
    if (!host) return
    this.accounts.delete(id)
    await host.stop()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    if (url.pathname.startsWith('/__standin/')) return this.control(req, res, url)
    const accountInPath = /^\/client\/v4\/accounts\/([^/]+)/.exec(url.pathname)?.[1]
    let host: AccountHost | undefined
    if (accountInPath) {
      host = this.accounts.get(accountInPath)
      if (!host) {
        return sendJson(res, 403, {
          success: false,
          errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }],
          messages: [],
          result: null,
        })
      }
    } else {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '')
      host = [...this.accounts.values()].find((a) => a.tokens.has(token))
      if (!host) {
        return sendJson(res, 400, {
          success: false,
          errors: [{ code: 10000, message: 'Authentication error' }],
          messages: [],
          result: null,
        })
      }
    }
    await handleApi(req, res, host.apiContext())
  }

  /** The clients' door: accounts made and removed, and each account's state and controls. */
  private async control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const upload = /^\/__standin\/d1-upload\/([^/]+)$/.exec(url.pathname)
    if (upload) {
      const owner = [...this.accounts.values()].find((a) => a.account.d1Uploads.has(upload[1] ?? ''))
      if (!owner) return sendJson(res, 404, { error: 'unknown upload' })
      return handleApi(req, res, owner.apiContext())
    }
    const body = await readBody(req)
    const input = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {}
    try {
      if (req.method === 'POST' && url.pathname === '/__standin/accounts') {
        const host = await this.createAccount(input as AccountOptions)
        return sendJson(res, 200, host.info())
      }
      const call = /^\/__standin\/accounts\/([^/]+)(?:\/call)?$/.exec(url.pathname)
      if (call && req.method === 'DELETE') {
        await this.removeAccount(call[1] as string)
        return sendJson(res, 200, { ok: true })
      }
      if (call && req.method === 'POST') {
        const host = this.account(call[1] as string)
        const fn = host.calls[String(input.method)]
        if (!fn) return sendJson(res, 404, { error: `no call ${input.method}` })
        const result = await (fn as (...args: unknown[]) => unknown)(...((input.args as unknown[]) ?? []))
        return sendJson(res, 200, { result: result ?? null })
      }
      return sendJson(res, 404, { error: `no control path ${req.method} ${url.pathname}` })
    } catch (error) {
      return sendJson(res, 500, { error: (error as Error).message })
    }
  }

  async stop(): Promise<void> {
    for (const id of [...this.accounts.keys()]) await this.removeAccount(id)
    this.api.closeAllConnections()
    await new Promise<void>((resolve) => this.api.close(() => resolve()))
    rmSync(this.dir, { recursive: true, force: true })
  }
}

export async function startCloud(): Promise<Cloud> {
  const cloud = new Cloud(mkdtempSync(join(tmpdir(), 'cloudflare-standin-')))
  await cloud.start()
  return cloud
}
