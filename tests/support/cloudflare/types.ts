/** What a client of the stand-in sees (options, views, controls); all of it travels as JSON (a RegExp as { source, flags }). */
import type { ApiRequestRecord } from './api/index.ts'
import type { Binding, TokenScope } from './model.ts'

export type { ApiRequestRecord, Binding, TokenScope }

export interface AccountOptions {
  /** The account id (32 hex characters by default, random). */
  accountId?: string
  accountName?: string
  /** API tokens by name and scope (default: "operator", may do everything); `env` carries the first. */
  tokens?: Record<string, Partial<Omit<TokenScope, 'name'>>>
  /** The account's workers.dev subdomain; null: none registered. Default "stand-in". */
  subdomain?: string | null
  /** Zones on the account (for custom domains), with hostnames that already have DNS records. */
  zones?: { name: string; dnsRecords?: string[] }[]
  /** How long a new custom domain's certificate takes to be issued (TLS fails until then). */
  certificateDelayMs?: number
  /** How long the deployment before a new one keeps answering, as it reaches every location. Default 1 s. */
  propagationMs?: number
  /** Then how long requests take turns between the new deployment and the one before it. Default 2 s. */
  rolloutMs?: number
  /** A page's size when a client asks for a `page` without a `per_page` (the drills use 2). Default 100. */
  pageSize?: number
  /** D1 databases the account already has. */
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
  /** Whether it fails on purpose (control.breakVersions). */
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
  /** The current deployment (the newest: what the API reports; see `servingAt` for what answers). */
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
  /** Sent as the answer's Retry-After header (seconds), as Cloudflare's 429 carries it. */
  retryAfter?: number
}

/** A pattern as it travels: a string matched as a substring (paths: as a suffix), or a RegExp. */
export type Pattern = string | RegExp
export type WirePattern = string | { source: string; flags: string }

export interface BreakRule {
  message?: Pattern
  vars?: Record<string, string>
  ids?: string[]
  /** Only requests whose path matches fail (default: every path). */
  paths?: Pattern
}

/** What an operator would check, read from the account. */
export interface StandinState {
  workers(): Promise<WorkerView[]>
  worker(name: string): Promise<WorkerView>
  /** What answers a URL now (after propagation): versions (with their share) or a Preview deployment, or nothing. */
  servingAt(url: string): Promise<{
    kind: 'version' | 'preview' | 'none'
    ids: { id: string; percentage: number }[]
    reason?: string
  }>
  previews(worker: string): Promise<PreviewView[]>
  databases(): Promise<{ uuid: string; name: string }[]>
  /** Rows of a query on a D1 database (by name or id), the same database the served Workers use. */
  query<T = Record<string, unknown>>(database: string, sql: string, ...params: unknown[]): Promise<T[]>
  customDomains(): Promise<DomainView[]>
  /** A secret's value on a version (what the served Worker gets). */
  secretValue(worker: string, versionId: string, name: string): Promise<string | undefined>
  /** Requests the edge answered, in order. */
  edgeRequests(): Promise<EdgeRecord[]>
  /** Every API call, in order, with the name of the token that made it. */
  apiRequests(): Promise<ApiRequestRecord[]>
  /** Lines workerd and the served Workers printed (console output, send_email notices). */
  logs(): Promise<string[]>
}

/** Faults and settings. */
export interface StandinControl {
  /** Versions (and Preview deployments) that match answer 500 (on the paths given, else every path). */
  breakVersions(rule: BreakRule): Promise<void>
  clearBrokenVersions(): Promise<void>
  /** Issues every pending certificate now. */
  issueCertificates(): Promise<void>
  /** How long a deployment takes to answer everywhere (see AccountOptions.propagationMs). */
  setPropagation(ms: number): Promise<void>
  /** How long a rollout alternates the old and new deployments (see AccountOptions.rolloutMs). */
  setRollout(ms: number): Promise<void>
  /** Access in front of every URL of a Worker: without this service token, a 302 to the team's login; null: off. */
  protectWorker(
    worker: string,
    token: { clientId: string; clientSecret: string; teamDomain?: string } | null,
  ): Promise<void>
  /** Where served Workers' outbound fetches go (a handler in the client's process). */
  setOutbound(handler: ((request: Request) => Response | Promise<Response>) | undefined): Promise<void>
  /** The next API call matching answers this error instead (e.g. a failing `deployments status`). */
  failNext(method: string, path: Pattern, fault?: Fault): Promise<void>
  /** Runs one of a Worker's Cron Triggers (default: its first) once, on a version of its current deployment. */
  runScheduled(worker: string, cron?: string): Promise<{ versionId: string; outcome: string }>
  /**
   * Makes this account hold what another account's first deploy made (its databases, with their
   * tables and applied migrations, and its Worker with its one version serving), as if the same
   * commands had run here: one upload of the build serves every drill that starts from a first
   * deploy. Secrets are set to the values given. Returns the new databases' ids by name.
   */
  adopt(options: {
    from: string
    worker: string
    /** The ids to give the copied databases, by name (default: new ones). */
    databases?: Record<string, string>
    secrets: Record<string, string>
    message: string
  }): Promise<{ databases: Record<string, string>; version: string }>
  /**
   * A release made as `wrangler deploy` makes one, without running wrangler: a new version of the
   * Worker's latest upload (its code, bindings and secrets) with `vars` set (a value of null
   * removes the var) and `message`, deployed at 100%. For a drill whose subject is what comes after
   * a release (the deploy itself is drilled through the workflows). Returns the version's id.
   */
  release(options: { worker: string; message: string; vars?: Record<string, string | null> }): Promise<{
    version: string
  }>
  /** A Worker with no version yet, as `wrangler preview` makes the parent of a first Preview. */
  createWorker(name: string, settings: { workersDev: boolean; previewsEnabled: boolean }): Promise<void>
}

/** A client's view of one account of the stand-in Cloudflare. */
export interface Cloudflare {
  /** Everything a child process needs to use this account (wrangler, scripts, fetch through the edge). */
  env: Record<string, string>
  apiUrl: string
  accountId: string
  /** The account's API tokens, by name. */
  tokens: Record<string, string>
  /** The edge's proxy URL (HTTPS_PROXY). */
  proxyUrl: string
  /** The CA certificate file clients must trust (NODE_EXTRA_CA_CERTS). */
  caFile: string
  subdomain: string | undefined
  /** https://<worker>.<subdomain>.workers.dev */
  workersDevUrl(worker: string): string
  state: StandinState
  control: StandinControl
  /** A fetch from this process through the edge (CONNECT, TLS with the stand-in's CA), as a child's would go. */
  fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<EdgeResponse>
  /** Requests the stand-in could not answer: unknown API paths, hosts, unhandled outbound fetches. */
  unknownRequests(): Promise<UnknownRequest[]>
  /** Throws, naming each unknown request, when there was one. */
  assertNoUnknownRequests(): Promise<void>
  /** Removes the account (and stops its workerd). */
  stop(): Promise<void>
}

export interface EdgeResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json<T = unknown>(): T
}

export function toWire(pattern: Pattern): WirePattern {
  return typeof pattern === 'string' ? pattern : { source: pattern.source, flags: pattern.flags }
}

export function fromWire(pattern: WirePattern): Pattern {
  return typeof pattern === 'string' ? pattern : new RegExp(pattern.source, pattern.flags)
}
