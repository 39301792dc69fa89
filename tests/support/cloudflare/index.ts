/**
 * A stand-in Cloudflare account on 127.0.0.1, for running the project's own wrangler (and the
 * scripts around it) offline. See README.md in this folder for what it serves and what it guesses.
 *
 *   const cf = await startCloudflare()
 *   const run = await runWrangler(cf, ['deploy'], { cwd })   // the pinned wrangler, as a child process
 *   cf.state.worker('akshara-labs-site').deployment          // what an operator would check
 *   await cf.fetch('https://akshara-labs-site.stand-in.workers.dev/api/health')
 *   cf.assertNoUnknownRequests()
 *   await cf.stop()
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { connect as netConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSecureContext, type SecureContext, connect as tlsConnect } from 'node:tls'
import { type ApiRequestRecord, handleApi } from './api.ts'
import { runQuery } from './d1.ts'
import { type Edge, startEdge } from './edge.ts'
import {
  Account,
  type Binding,
  type Build,
  type CustomDomain,
  type PreviewDeployment,
  type Version,
  type Worker,
} from './model.ts'
import { Runtime } from './runtime.ts'
import { type CertificateAuthority, createAuthority } from './tls.ts'

export type OutboundHandler = (request: Request) => Response | Promise<Response>

export interface StartOptions {
  /** The account id (32 hex characters by default, random). */
  accountId?: string
  accountName?: string
  /** The token the API accepts (a random dummy by default). */
  token?: string
  /** The account's workers.dev subdomain; null: none registered. Default "stand-in". */
  subdomain?: string | null
  /** Zones on the account (for custom domains), with hostnames that already have DNS records. */
  zones?: { name: string; dnsRecords?: string[] }[]
  /** How long a new custom domain's certificate takes to be issued (TLS fails until then). */
  certificateDelayMs?: number
  /** Where a served Worker's outbound fetch goes (default: loopback URLs pass, others fail). */
  outbound?: OutboundHandler
  /**
   * D1 databases the account already has, with their ids: lets several fresh accounts share one
   * build whose wrangler.toml carries these ids. (A first-deploy drill creates them with
   * `wrangler d1 create` instead.)
   */
  databases?: { name: string; uuid: string }[]
}

export interface UnknownRequest {
  /** api: a call to the REST API it does not serve; edge: a host it does not serve; outbound: a served Worker's fetch nobody handled. */
  kind: 'api' | 'edge' | 'outbound'
  method: string
  path: string
  detail?: string
}

export interface VersionView {
  id: string
  number: number
  message: string | undefined
  tag: string | undefined
  triggeredBy: string | undefined
  createdOn: string
  vars: Record<string, unknown>
  secretNames: string[]
  /** Every binding, without secret values. */
  bindings: Binding[]
  compatibilityDate: string
  /** The version's own Preview URL (while Preview URLs are on). */
  previewUrl: string | undefined
  /** Whether it answers 500 on purpose (control.breakVersions). */
  broken: boolean
}

export interface DeploymentView {
  id: string
  createdOn: string
  message: string | undefined
  triggeredBy: string | undefined
  versions: { id: string; percentage: number }[]
}

export interface WorkerView {
  name: string
  workersDev: boolean
  previewsEnabled: boolean
  /** https://<name>.<subdomain>.workers.dev while workers.dev is on. */
  url: string | undefined
  schedules: string[]
  latestVersion: VersionView | undefined
  /** The current deployment (newest). */
  deployment: DeploymentView | undefined
  versions: VersionView[]
  deployments: DeploymentView[]
  settings: Record<string, unknown>
}

export interface PreviewView {
  id: string
  name: string
  slug: string
  url: string | undefined
  deployments: {
    id: string
    url: string | undefined
    message: string | undefined
    vars: Record<string, unknown>
    secretNames: string[]
    bindings: Binding[]
  }[]
}

export interface DomainView {
  hostname: string
  worker: string
  zone: string
  certificateReady: boolean
  /** The certificate is issued and the Worker has a deployment: https://<hostname> serves it. */
  answers: boolean
  replacedDnsRecord: boolean
}

export interface EdgeRecord {
  at: string
  method: string
  url: string
  status: number
  /** What answered: a version or Preview deployment id, or why nothing did. */
  servedBy: { kind: 'version' | 'preview'; id: string; worker: string } | { kind: 'none'; reason: string }
}

export interface Fault {
  status?: number
  code?: number
  message?: string
}

export interface StandinState {
  workers(): WorkerView[]
  worker(name: string): WorkerView
  /** What serves a URL now: versions (with their share) or a Preview deployment, or nothing. */
  servingAt(url: string): {
    kind: 'version' | 'preview' | 'none'
    ids: { id: string; percentage: number }[]
    reason?: string
  }
  previews(worker: string): PreviewView[]
  databases(): { uuid: string; name: string }[]
  /** Rows of a query on a D1 database (by name or id), the same database the served Workers use. */
  query<T = Record<string, unknown>>(database: string, sql: string, ...params: unknown[]): Promise<T[]>
  customDomains(): DomainView[]
  /** A secret's value on a version (what the served Worker gets). */
  secretValue(worker: string, versionId: string, name: string): string | undefined
  /** Requests the edge answered, in order. */
  edgeRequests(): EdgeRecord[]
  /** Every API call, in order. */
  apiRequests(): ApiRequestRecord[]
  /** Lines workerd and the served Workers printed (console output, send_email notices). */
  logs(): string[]
  /**
   * Messages the served Workers sent through a send_email binding: as wrangler does locally,
   * Miniflare writes each to a file (.eml for a raw message, .txt/.html for a built one).
   */
  sentEmails(): { file: string; content: string }[]
}

export interface StandinControl {
  /** Versions (and Preview deployments) that match answer 500 to every request, on purpose. */
  breakVersions(match: { message?: string | RegExp; vars?: Record<string, string>; ids?: string[] }): void
  clearBrokenVersions(): void
  /** Certificate delay for custom domains attached from now on. */
  setCertificateDelay(ms: number): void
  /** Issues every pending certificate now. */
  issueCertificates(): void
  /**
   * Cloudflare Access in front of workers.dev and Preview URLs (an account setting here): requests
   * need this service token's CF-Access-Client-Id / CF-Access-Client-Secret, else they get a 302 to
   * the team's login page. null turns it off.
   */
  accessOnPreviews(token: { clientId: string; clientSecret: string; teamDomain?: string } | null): void
  /** Where served Workers' outbound fetches go. */
  setOutbound(handler: OutboundHandler | undefined): void
  /** The next API call matching answers this error instead (e.g. a failing `deployments status`). */
  failNext(method: string, path: string | RegExp, fault?: Fault): void
  /**
   * Runs a Worker's Cron Trigger once, as Cloudflare does on schedule: on a version of its current
   * deployment (picked by percentage). The cron must be one of the Worker's schedules (default: the
   * first). Previews have no Cron Triggers.
   */
  runScheduled(worker: string, cron?: string): Promise<{ versionId: string; outcome: string }>
}

export interface Cloudflare {
  /** Everything a child process needs to use this account (wrangler, scripts, fetch through the edge). */
  env: Record<string, string>
  apiUrl: string
  accountId: string
  /** The edge's proxy URL (HTTPS_PROXY). */
  proxyUrl: string
  /** The CA certificate file clients must trust (NODE_EXTRA_CA_CERTS). */
  caFile: string
  /** https://<worker>.<subdomain>.workers.dev */
  workersDevUrl(worker: string): string
  state: StandinState
  control: StandinControl
  /** A fetch from this process through the edge (CONNECT, TLS with the stand-in's CA), as a child's would go. */
  fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<EdgeResponse>
  /** Requests the stand-in could not answer: unknown API paths, hosts, unhandled outbound fetches. */
  unknownRequests(): UnknownRequest[]
  /** Throws, naming each unknown request, when there was one. */
  assertNoUnknownRequests(): void
  stop(): Promise<void>
}

export interface EdgeResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json<T = unknown>(): T
}

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

export async function startCloudflare(options: StartOptions = {}): Promise<Cloudflare> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudflare-standin-'))
  const accountId = options.accountId ?? randomBytes(16).toString('hex')
  const token = options.token ?? `stand-in-${randomBytes(8).toString('hex')}`
  const account = new Account({
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
  })
  for (const db of options.databases ?? []) {
    account.d1.set(db.uuid, { uuid: db.uuid, name: db.name, createdAt: new Date().toISOString() })
  }

  const unknown: UnknownRequest[] = []
  const apiLog: ApiRequestRecord[] = []
  const edgeLog: EdgeRecord[] = []
  const faults: { method: string; path: string | RegExp; fault: Required<Fault> }[] = []
  const brokenRules: { message?: string | RegExp; vars?: Record<string, string>; ids?: string[] }[] = []
  let outbound: OutboundHandler | undefined = options.outbound
  let access: { clientId: string; clientSecret: string; teamDomain: string } | null = null

  const runtime = new Runtime(join(dir, 'runtime'), async (request) => {
    if (outbound) return outbound(request)
    const url = new URL(request.url)
    if (['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return fetch(request)
    unknown.push({ kind: 'outbound', method: request.method, path: request.url, detail: 'no outbound handler' })
    return new Response('The stand-in has no outbound handler for this URL (control.setOutbound)', { status: 502 })
  })

  const authority: CertificateAuthority = createAuthority(join(dir, 'tls'))
  const contexts = new Map<string, SecureContext>()
  function contextFor(names: string[]): SecureContext {
    const key = names.join(',')
    let context = contexts.get(key)
    if (!context) {
      context = createSecureContext(authority.issue(names))
      contexts.set(key, context)
    }
    return context
  }

  // ── Routing: which build answers a host ──────────────────────────────────────────────────

  const isBroken = (build: Version | PreviewDeployment) =>
    brokenRules.some((rule) => {
      if (rule.ids?.includes(build.id)) return true
      const message = build.annotations['workers/message']
      if (rule.message !== undefined && message !== undefined) {
        if (typeof rule.message === 'string' ? message.includes(rule.message) : rule.message.test(message)) return true
      }
      if (rule.vars) {
        const vars = varsOf(build)
        if (Object.entries(rule.vars).every(([k, v]) => vars[k] === v)) return true
      }
      return false
    })

  const runTarget = (build: Version | PreviewDeployment) => ({
    key: `${build.kind}-${build.id}`,
    build,
    asset: (hash: string) => account.assetStore.get(hash)?.content,
  })

  type Route =
    | { kind: 'version'; worker: Worker; choices: { version: Version; percentage: number }[] }
    | { kind: 'preview'; worker: Worker; deployment: PreviewDeployment }
    | { kind: 'none'; status: number; reason: string }

  function routeHost(host: string): Route {
    const sub = account.subdomainHost
    const domain = account.domains.find((d) => d.hostname === host)
    if (domain) {
      const target = account.workers.get(domain.service)
      const deployment = target && account.currentDeployment(target)
      if (!domain.enabled) return { kind: 'none', status: 404, reason: `${host} is not enabled for production` }
      if (!target || !deployment) return { kind: 'none', status: 522, reason: `${host} has no deployment` }
      return { kind: 'version', worker: target, choices: choicesOf(target, deployment) }
    }
    if (!sub || !host.endsWith(`.${sub}`)) return { kind: 'none', status: 530, reason: `no route for ${host}` }
    const label = host.slice(0, -sub.length - 1)
    const exact = account.workers.get(label)
    if (exact) {
      const deployment = account.currentDeployment(exact)
      if (!exact.workersDev) return { kind: 'none', status: 404, reason: `workers.dev is off for ${label}` }
      if (!deployment) return { kind: 'none', status: 404, reason: `${label} has no deployment` }
      return { kind: 'version', worker: exact, choices: choicesOf(exact, deployment) }
    }
    for (const candidate of account.workers.values()) {
      if (!label.endsWith(`-${candidate.name}`)) continue
      const prefix = label.slice(0, -candidate.name.length - 1)
      if (!candidate.previewsEnabled)
        return { kind: 'none', status: 404, reason: `Preview URLs are off for ${candidate.name}` }
      const preview = candidate.previews.find((p) => p.slug === prefix)
      if (preview) {
        const latest = preview.deployments.at(-1)
        if (!latest) return { kind: 'none', status: 404, reason: `Preview ${preview.name} has no deployment` }
        return { kind: 'preview', worker: candidate, deployment: latest }
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

  function choicesOf(target: Worker, deployment: { versions: { version_id: string; percentage: number }[] }) {
    return deployment.versions.map((v) => ({
      version: account.version(target, v.version_id),
      percentage: v.percentage,
    }))
  }

  function pick(choices: { version: Version; percentage: number }[]): Version {
    let roll = Math.random() * 100
    for (const choice of choices) {
      roll -= choice.percentage
      if (roll < 0) return choice.version
    }
    return (choices.at(-1) as { version: Version }).version
  }

  const edgeHandler = async (req: IncomingMessage, res: ServerResponse, scheme: 'https' | 'http') => {
    const host = String(req.headers.host ?? '')
      .replace(/:\d+$/, '')
      .toLowerCase()
    const url = `${scheme}://${host}${req.url ?? '/'}`
    const at = new Date().toISOString()
    const method = req.method ?? 'GET'
    const reply = (status: number, headers: Record<string, string>, body: string, servedBy: EdgeRecord['servedBy']) => {
      res.writeHead(status, { server: 'cloudflare', 'cf-ray': `${randomBytes(8).toString('hex')}-SIN`, ...headers })
      res.end(body)
      edgeLog.push({ at, method, url, status, servedBy })
    }

    if (access && host.endsWith('.workers.dev')) {
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

    const route = routeHost(host)
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
    if (isBroken(build)) {
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
      await runtime.withWorker(
        runTarget(build),
        (endpoint) =>
          new Promise<void>((resolve) => {
            const upstream = httpRequest(
              { host: endpoint.hostname, port: endpoint.port, method, path: url, headers },
              (answer) => {
                const out = { ...answer.headers }
                delete out.connection
                delete out['keep-alive']
                res.writeHead(answer.statusCode ?? 502, { server: 'cloudflare', ...out })
                answer.pipe(res)
                answer.on('end', () => {
                  edgeLog.push({ at, method, url, status: answer.statusCode ?? 502, servedBy })
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

  const serves = (hostname: string) =>
    hostname.endsWith('.workers.dev') || account.domains.some((d) => d.hostname === hostname)

  const edge: Edge = await startEdge({
    serves,
    secureContext(hostname) {
      const domain = account.domains.find((d) => d.hostname === hostname)
      if (domain) return Date.now() >= domain.certificateReadyAt ? contextFor([hostname]) : undefined
      const sub = account.subdomainHost
      if (sub && hostname.endsWith(`.${sub}`) && hostname.split('.').length === sub.split('.').length + 1) {
        return contextFor([`*.${sub}`])
      }
      if (hostname.endsWith('.workers.dev')) return contextFor([hostname])
      return undefined
    },
    handle(req, res, scheme) {
      edgeHandler(req, res, scheme).catch((error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(`stand-in edge: ${(error as Error).message}`)
      })
    },
    refused(method, target) {
      unknown.push({ kind: 'edge', method, path: target, detail: 'not a stand-in host (tests run offline)' })
    },
  })

  // ── The API server ───────────────────────────────────────────────────────────────────────

  let apiPort = 0
  const api = createServer((req, res) => {
    handleApi(req, res, {
      account,
      token,
      withD1: (id, work) => runtime.withDatabase(id, work),
      warm: (build) => runtime.warm(runTarget(build)),
      baseUrl: () => `http://127.0.0.1:${apiPort}`,
      takeFault(method, path) {
        const index = faults.findIndex(
          (f) => f.method === method && (typeof f.path === 'string' ? path.endsWith(f.path) : f.path.test(path)),
        )
        if (index < 0) return undefined
        return faults.splice(index, 1)[0]?.fault
      },
      record(entry) {
        apiLog.push(entry)
        if (entry.unknown) unknown.push({ kind: 'api', method: entry.method, path: entry.path, detail: entry.error })
      },
    }).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(error))
    })
  })
  // The API never closes an idle keep-alive connection itself (Node's default closes it after 5 s):
  // wrangler's fetch reuses idle sockets, and on a busy machine it can pick one up just as a server
  // closes it, which fails that call with "fetch failed". The client closes them; stop() ends the rest.
  api.keepAliveTimeout = 0
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', () => resolve()))
  apiPort = (api.address() as AddressInfo).port
  const apiUrl = `http://127.0.0.1:${apiPort}/client/v4`

  // ── Views ────────────────────────────────────────────────────────────────────────────────

  const sub = () => account.subdomainHost
  const versionView = (target: Worker, v: Version): VersionView => ({
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
    previewUrl: target.previewsEnabled && sub() ? `https://${v.id.slice(0, 8)}-${target.name}.${sub()}` : undefined,
    broken: isBroken(v),
  })
  const deploymentView = (d: Worker['deployments'][number]): DeploymentView => ({
    id: d.id,
    createdOn: d.createdOn,
    message: d.annotations['workers/message'],
    triggeredBy: d.annotations['workers/triggered_by'],
    versions: d.versions.map((v) => ({ id: v.version_id, percentage: v.percentage })),
  })
  const workerView = (target: Worker): WorkerView => {
    const latest = account.latestVersion(target)
    const current = account.currentDeployment(target)
    return {
      name: target.name,
      workersDev: target.workersDev,
      previewsEnabled: target.previewsEnabled,
      url: target.workersDev && sub() ? `https://${target.name}.${sub()}` : undefined,
      schedules: target.schedules.map((s) => s.cron),
      latestVersion: latest && versionView(target, latest),
      deployment: current && deploymentView(current),
      versions: target.versions.map((v) => versionView(target, v)),
      deployments: target.deployments.map(deploymentView),
      settings: { ...target.settings },
    }
  }
  const domainView = (d: CustomDomain): DomainView => {
    const ready = Date.now() >= d.certificateReadyAt
    const target = account.workers.get(d.service)
    return {
      hostname: d.hostname,
      worker: d.service,
      zone: d.zoneName,
      certificateReady: ready,
      answers: ready && Boolean(target && account.currentDeployment(target)),
      replacedDnsRecord: d.replacedDnsRecord,
    }
  }

  const state: StandinState = {
    workers: () => [...account.workers.values()].map(workerView),
    worker: (name) => workerView(account.worker(name)),
    servingAt(url) {
      const route = routeHost(new URL(url).hostname)
      if (route.kind === 'none') return { kind: 'none', ids: [], reason: route.reason }
      if (route.kind === 'preview') return { kind: 'preview', ids: [{ id: route.deployment.id, percentage: 100 }] }
      return { kind: 'version', ids: route.choices.map((c) => ({ id: c.version.id, percentage: c.percentage })) }
    },
    previews(workerName) {
      const target = account.worker(workerName)
      return target.previews.map((p) => ({
        id: p.id,
        name: p.name,
        slug: p.slug,
        url: target.previewsEnabled && sub() ? `https://${p.slug}-${target.name}.${sub()}` : undefined,
        deployments: p.deployments.map((d) => ({
          id: d.id,
          url: target.previewsEnabled && sub() ? `https://${d.id.slice(0, 8)}-${target.name}.${sub()}` : undefined,
          message: d.annotations['workers/message'],
          vars: varsOf(d),
          secretNames: d.bindings.filter((b) => b.type === 'secret_text').map((b) => b.name),
          bindings: d.bindings.map(withoutSecret),
        })),
      }))
    },
    databases: () => [...account.d1.values()].map((d) => ({ uuid: d.uuid, name: d.name })),
    async query<T>(database: string, sql: string, ...params: unknown[]) {
      const db = account.database(database)
      const results = await runtime.withDatabase(db.uuid, (d1) => runQuery(d1, sql, params))
      return (results.at(-1)?.results ?? []) as T[]
    },
    customDomains: () => account.domains.map(domainView),
    secretValue(workerName, versionId, name) {
      const target = account.worker(workerName)
      return account.version(target, versionId).bindings.find((b) => b.name === name && b.type === 'secret_text')?.text
    },
    edgeRequests: () => [...edgeLog],
    apiRequests: () => [...apiLog],
    logs: () => [...runtime.logLines],
    sentEmails: () =>
      runtime.logLines
        .filter((line) => line.includes('send_email binding called'))
        .flatMap((line) => [...line.matchAll(/^(?:Email|Text|HTML): (.+)$/gm)].map((m) => (m[1] ?? '').trim()))
        .map((file) => ({ file, content: existsSync(file) ? readFileSync(file, 'utf8') : '' })),
  }

  const control: StandinControl = {
    async runScheduled(workerName, cron) {
      const target = account.worker(workerName)
      const schedule = cron ?? target.schedules[0]?.cron
      if (!schedule || !target.schedules.some((s) => s.cron === schedule)) {
        throw new Error(`${workerName} has no Cron Trigger ${cron ?? ''}`.trim())
      }
      const deployment = account.currentDeployment(target)
      if (!deployment) throw new Error(`${workerName} has no deployment`)
      const version = pick(choicesOf(target, deployment))
      const result = await runtime.scheduled(runTarget(version), schedule)
      return { versionId: version.id, outcome: result.outcome }
    },
    breakVersions: (match) => void brokenRules.push(match),
    clearBrokenVersions: () => void brokenRules.splice(0),
    setCertificateDelay: (ms) => {
      account.options.certificateDelayMs = ms
    },
    issueCertificates: () => {
      for (const d of account.domains) d.certificateReadyAt = Math.min(d.certificateReadyAt, Date.now())
    },
    accessOnPreviews: (token) => {
      access = token ? { teamDomain: 'stand-in.cloudflareaccess.com', ...token } : null
    },
    setOutbound: (handler) => {
      outbound = handler
    },
    failNext: (method, path, fault = {}) =>
      void faults.push({
        method,
        path,
        fault: { status: fault.status ?? 500, code: fault.code ?? 10013, message: fault.message ?? 'Injected failure' },
      }),
  }

  // wrangler checks npm for a newer version of itself, with a cache in os.tmpdir(). Children get a
  // TMPDIR whose cache says the pinned version is the latest, so no run reaches the registry (an
  // update check is no part of any procedure, and the tests run offline).
  const childTmp = join(dir, 'tmp')
  mkdirSync(join(childTmp, 'update-check'), { recursive: true })
  const wranglerVersion = (
    JSON.parse(readFileSync(new URL('../../../node_modules/wrangler/package.json', import.meta.url), 'utf8')) as {
      version: string
    }
  ).version
  writeFileSync(
    join(childTmp, 'update-check', 'wrangler-latest.json'),
    JSON.stringify({ latest: wranglerVersion, lastUpdate: Date.now() + 365 * 24 * 3600 * 1000 }),
  )

  const env: Record<string, string> = {
    TMPDIR: childTmp,
    CLOUDFLARE_API_BASE_URL: apiUrl,
    CLOUDFLARE_ACCOUNT_ID: accountId,
    CLOUDFLARE_API_TOKEN: token,
    HTTPS_PROXY: edge.url,
    HTTP_PROXY: edge.url,
    NO_PROXY: '127.0.0.1,localhost,::1',
    NODE_USE_ENV_PROXY: '1',
    NODE_EXTRA_CA_CERTS: authority.caFile,
    // curl, as the runbook's checks use it (`curl -s https://<domain>/api/health`).
    CURL_CA_BUNDLE: authority.caFile,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
  }

  const describeUnknown = (u: UnknownRequest) => `${u.kind} ${u.method} ${u.path}${u.detail ? ` (${u.detail})` : ''}`

  return {
    env,
    apiUrl,
    accountId,
    proxyUrl: edge.url,
    caFile: authority.caFile,
    workersDevUrl: (name) => `https://${name}.${account.subdomainHost}`,
    state,
    control,
    fetch: (url, init) => edgeFetch(edge.port, authority.caPem, url, init),
    unknownRequests: () => [...unknown],
    assertNoUnknownRequests() {
      if (unknown.length > 0) {
        throw new Error(
          `The stand-in Cloudflare got requests it does not serve:\n${unknown.map(describeUnknown).join('\n')}`,
        )
      }
    },
    async stop() {
      await runtime.dispose()
      await edge.close()
      api.closeAllConnections()
      await new Promise<void>((resolve) => api.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    },
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

/** An HTTPS (or HTTP) request through the edge proxy, trusting only the stand-in's CA. */
function edgeFetch(
  proxyPort: number,
  ca: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<EdgeResponse> {
  const target = new URL(url)
  const finish = (res: IncomingMessage, resolve: (r: EdgeResponse) => void) => {
    const chunks: Buffer[] = []
    res.on('data', (c: Buffer) => chunks.push(c))
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T })
    })
  }
  if (target.protocol === 'http:') {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: proxyPort,
          method: init.method ?? 'GET',
          path: url,
          headers: { host: target.host, ...init.headers },
        },
        (res) => finish(res, resolve),
      )
      req.on('error', reject)
      req.end(init.body)
    })
  }
  return new Promise((resolve, reject) => {
    const socket = netConnect(proxyPort, '127.0.0.1', () => {
      socket.write(`CONNECT ${target.hostname}:443 HTTP/1.1\r\nHost: ${target.hostname}:443\r\n\r\n`)
    })
    socket.once('error', reject)
    let head = ''
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      socket.off('data', onData)
      if (!/^HTTP\/1\.1 200/.test(head)) {
        socket.destroy()
        return reject(new Error(`The edge refused CONNECT ${target.hostname}: ${head.split('\r\n')[0]}`))
      }
      const tls = tlsConnect({ socket, servername: target.hostname, ca })
      tls.once('error', reject)
      const req = httpsRequest(
        {
          host: target.hostname,
          method: init.method ?? 'GET',
          path: target.pathname + target.search,
          headers: init.headers,
          // No agent: the request goes over this TLS socket (no DNS lookup of the host).
          createConnection: () => tls,
        },
        (res) => finish(res, resolve),
      )
      req.on('error', reject)
      req.end(init.body)
    }
    socket.on('data', onData)
  })
}

// Run alone (`npx node tests/support/cloudflare/index.ts`): starts an account and prints the
// variables to export in a shell, so the project's commands can be tried by hand against it.
if (import.meta.main) {
  const cf = await startCloudflare({ zones: [{ name: 'aksharalabs.in' }] })
  for (const [name, value] of Object.entries(cf.env)) console.log(`export ${name}='${value}'`)
  console.log(`# Stand-in Cloudflare account ${cf.accountId}; Ctrl-C stops it.`)
  const stop = () => {
    cf.stop().finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
