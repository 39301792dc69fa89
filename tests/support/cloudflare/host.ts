/** One account of the stand-in: its model, tokens, edge and runtime, which build answers a host, and what was asked of it. */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ApiRequestRecord } from './api/index.ts'
import { callsOf } from './calls.ts'
import type { AccountInfo, Cloud } from './cloud.ts'
import { type Edge, startEdge } from './edge.ts'
import {
  Account,
  FULL_SCOPE,
  type PreviewDeployment,
  type TokenScope,
  type Version,
  varsOf,
  type Worker,
} from './model.ts'
import { type RunTarget, Runtime } from './runtime.ts'
import { serveEdge } from './serve.ts'
import type { AccountOptions, BreakRule, EdgeRecord, Fault, Pattern, UnknownRequest } from './types.ts'

/** Header carrying a served Worker's outbound request's own URL to the client's outbound handler. */
export const OUTBOUND_URL_HEADER = 'x-standin-outbound-url'

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
  readonly calls = callsOf(this)
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
  readonly cloud: Cloud
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
    const turn = <T extends { createdOn: string }>(all: T[]) =>
      answer ? account.answeringDeployment(all, account.servedDeployment(all)) : account.servedDeployment(all)
    const sub = account.subdomainHost
    const domain = account.domains.find((d) => d.hostname === host)
    if (domain) {
      const target = account.workers.get(domain.service)
      const deployment = target && turn(target.deployments)
      if (!domain.enabled) return { kind: 'none', status: 404, reason: `${host} is not enabled for production` }
      if (!target || !deployment) return { kind: 'none', status: 522, reason: `${host} has no deployment` }
      return { kind: 'version', worker: target, choices: this.choicesOf(target, deployment) }
    }
    if (!sub || !host.endsWith(`.${sub}`)) return { kind: 'none', status: 530, reason: `no route for ${host}` }
    const label = host.slice(0, -sub.length - 1)
    const exact = account.workers.get(label)
    if (exact) {
      const deployment = turn(exact.deployments)
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
        const served = turn(preview.deployments)
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
  workerOfHost(host: string): string | undefined {
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
        serveEdge(this, req, res, scheme).catch((error) => {
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
