/** The stand-in's data: Workers, versions, deployments, Previews, databases, domains, tokens (account.ts: the rules). */
/** A binding as the API stores it: `{ name, type, ...fields }` (secret_text carries `text`). */
export interface Binding {
  name: string
  type: string
  text?: string
  [field: string]: unknown
}

export interface StoredModule {
  name: string
  contentType: string
  content: Uint8Array
}

export interface AssetsRef {
  /** Path (with leading slash) → content hash. */
  manifest: Record<string, { hash: string; size: number }>
  config: Record<string, unknown>
}

/** What a Worker version or a Preview deployment runs: code, bindings, assets. */
export interface Build {
  mainModule: string
  modules: StoredModule[]
  bindings: Binding[]
  compatibilityDate: string
  compatibilityFlags: string[]
  assets?: AssetsRef
}

export interface Version extends Build {
  kind: 'version'
  id: string
  number: number
  workerName: string
  createdOn: string
  source: string
  annotations: Record<string, string>
  /** Whether the version got a version Preview URL (the Worker's previews_enabled at upload). */
  hasPreview: boolean
}

export interface Deployment {
  id: string
  createdOn: string
  source: string
  strategy: 'percentage'
  authorEmail: string
  versions: { version_id: string; percentage: number }[]
  annotations: Record<string, string>
}

export interface PreviewDeployment extends Build {
  kind: 'preview'
  id: string
  previewId: string
  workerName: string
  createdOn: string
  annotations: Record<string, string>
}

export interface Preview {
  id: string
  name: string
  slug: string
  createdOn: string
  settings: Record<string, unknown>
  deployments: PreviewDeployment[]
}

export interface Worker {
  id: string
  name: string
  createdOn: string
  modifiedOn: string
  etag: string
  versions: Version[]
  /** Newest last. */
  deployments: Deployment[]
  workersDev: boolean
  previewsEnabled: boolean
  schedules: { cron: string; created_on: string; modified_on: string }[]
  settings: Record<string, unknown>
  previews: Preview[]
}

export interface D1Database {
  uuid: string
  name: string
  createdAt: string
  jurisdiction?: string
}

export interface Zone {
  id: string
  name: string
  /** Hostnames in the zone that already have DNS records (e.g. an old site on the apex and www). */
  dnsRecords: string[]
}

export interface CustomDomain {
  id: string
  hostname: string
  zoneId: string
  zoneName: string
  service: string
  environment: string
  enabled: boolean
  previewsEnabled: boolean
  createdAt: string
  /** When the certificate is issued: before this, TLS to the hostname fails. */
  certificateReadyAt: number
  /** A DNS record that existed for the hostname and was replaced when the domain was attached. */
  replacedDnsRecord: boolean
}

export interface AccountOptions {
  accountId: string
  accountName: string
  email: string
  /** The account's workers.dev subdomain (`<name>.workers.dev`); undefined: none registered yet. */
  subdomain: string | undefined
  zones: Zone[]
  certificateDelayMs: number
  /**
   * How long the deployment before the newest one keeps answering after a deployment is made, as
   * a new version reaches Cloudflare's locations one by one (Guess: one delay for every location).
   */
  propagationMs: number
  /**
   * After that delay, how long requests alternate between the new deployment and the one before it
   * before only the new one answers: a rollout seen from one client, whose requests reach
   * locations that have the new deployment and locations that do not yet (Guess: strict turns).
   */
  rolloutMs: number
  /** A page's size when the client names none (AccountOptions.pageSize). */
  pageSize: number
}

/**
 * What an API token may do (Cloudflare's Workers roles and D1 permissions, scoped to the whole
 * product or to selected resources: https://developers.cloudflare.com/workers/authorization/).
 * `workers` and `databases` name the Workers and D1 databases (by name) it reaches, or '*' for all.
 */
export interface TokenScope {
  /** What the drills call it (recorded with each API call). */
  name: string
  workers: '*' | string[]
  databases: '*' | string[]
  /** Workers Admin at the product scope: may create Workers (and register the workers.dev subdomain). */
  createWorkers: boolean
  /** D1 Admin at the product scope: may create databases. */
  createDatabases: boolean
  /** Zone permissions for custom domains (Workers Routes, DNS, SSL). */
  zones: boolean
}

export const FULL_SCOPE: Omit<TokenScope, 'name'> = {
  workers: '*',
  databases: '*',
  createWorkers: true,
  createDatabases: true,
  zones: true,
}

export function clean(binding: Binding): Binding {
  return Object.fromEntries(Object.entries(binding).filter(([, v]) => v !== undefined)) as Binding
}

export function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {}
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, String(v)]),
  )
}

/** A version by percentage (traffic split at random, as Cloudflare splits it). */
export function pick(choices: { version: Version; percentage: number }[]): Version {
  let roll = Math.random() * 100
  for (const choice of choices) {
    roll -= choice.percentage
    if (roll < 0) return choice.version
  }
  return (choices.at(-1) as { version: Version }).version
}

/** A build's vars (plain_text and json bindings). */
export function varsOf(build: Build): Record<string, unknown> {
  return Object.fromEntries(
    build.bindings
      .filter((b) => b.type === 'plain_text' || b.type === 'json')
      .map((b) => [b.name, b.type === 'json' ? b.json : b.text]),
  )
}

/** A D1 database's whole state at a bookmark: its schema objects in order and each table's rows. */
export interface DatabaseState {
  databaseId: string
  at: string
  schema: { type: string; name: string; sql: string }[]
  rows: Record<string, Record<string, unknown>[]>
}

export { Account } from './account.ts'
