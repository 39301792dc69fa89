/**
 * The stand-in's account: Workers with their versions and deployments, Previews, D1 databases,
 * custom domains, assets. Plain data and the rules Cloudflare applies to it; no HTTP here.
 *
 * Rules taken from wrangler 4.151's own code (what it sends and what it expects back) and from
 * Cloudflare's documentation. Where the stand-in had to guess, the comment says "Guess:" and the
 * README of this folder lists it.
 */
import { randomUUID } from 'node:crypto'
import { ApiError } from './http.ts'

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
  primaryLocationHint?: string
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

const now = () => new Date().toISOString()

/** Cloudflare's slug for a Preview name. Guess: lower case, runs of other characters become "-". */
export function previewSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63) || 'preview'
  )
}

/** A D1 database's whole state at a bookmark: its schema objects in order and each table's rows. */
export interface DatabaseState {
  databaseId: string
  at: string
  schema: { type: string; name: string; sql: string }[]
  rows: Record<string, Record<string, unknown>[]>
}

export class Account {
  readonly options: AccountOptions
  readonly workers = new Map<string, Worker>()
  readonly d1 = new Map<string, D1Database>()
  readonly domains: CustomDomain[] = []
  /** Asset contents by hash, account-wide (an upload session asks only for hashes it lacks). */
  readonly assetStore = new Map<string, { content: Uint8Array; contentType: string | undefined }>()
  /** Asset upload sessions by id. */
  readonly assetSessions = new Map<
    string,
    { manifest: AssetsRef['manifest']; pending: Set<string>; workerName: string }
  >()
  /** Completed asset uploads (what a completion token names). */
  readonly assetCompletions = new Map<string, AssetsRef['manifest']>()
  /** D1 import uploads (`d1 execute --file --remote`), by file name. */
  readonly d1Uploads = new Map<string, { etag: string; content?: Buffer; databaseId: string }>()
  /**
   * D1 Time Travel bookmarks handed out, by bookmark: the database's state then (its schema and
   * rows). Guess: the stand-in keeps the states it was asked for, where D1 keeps every change.
   */
  readonly bookmarks = new Map<string, DatabaseState>()

  constructor(options: AccountOptions) {
    this.options = options
  }

  get subdomainHost(): string | undefined {
    return this.options.subdomain ? `${this.options.subdomain}.workers.dev` : undefined
  }

  // ── Workers ────────────────────────────────────────────────────────────────────────────────

  worker(name: string): Worker {
    const worker = this.workers.get(name)
    if (!worker) throw new ApiError(404, 10007, 'This Worker does not exist on your account.')
    return worker
  }

  createWorker(name: string, workersDev: boolean, previewsEnabled: boolean): Worker {
    if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) {
      throw new ApiError(400, 10016, `Invalid Worker name "${name}"`)
    }
    const worker: Worker = {
      id: randomUUID().replaceAll('-', ''),
      name,
      createdOn: now(),
      modifiedOn: now(),
      etag: randomUUID().replaceAll('-', ''),
      versions: [],
      deployments: [],
      workersDev,
      previewsEnabled,
      schedules: [],
      settings: {},
      previews: [],
    }
    this.workers.set(name, worker)
    return worker
  }

  latestVersion(worker: Worker): Version | undefined {
    return worker.versions.at(-1)
  }

  currentDeployment(worker: Worker): Deployment | undefined {
    return worker.deployments.at(-1)
  }

  /**
   * The deployment that answers requests now: the newest one once it has propagated; until then
   * the one before it (the first deployment of a Worker answers at once, as nothing else can).
   */
  servedDeployment(worker: Worker, now = Date.now()): Deployment | undefined {
    for (let i = worker.deployments.length - 1; i >= 0; i--) {
      const deployment = worker.deployments[i] as Deployment
      if (i === 0 || Date.parse(deployment.createdOn) + this.options.propagationMs <= now) return deployment
    }
    return undefined
  }

  private rolloutTurn = 0

  /**
   * The deployment that answers one request: servedDeployment, except during the new one's rollout,
   * when requests take turns between it and the one before it.
   */
  answeringDeployment<T extends { createdOn: string }>(deployments: T[], served: T | undefined, now = Date.now()) {
    if (!served) return served
    const index = deployments.indexOf(served)
    if (index <= 0 || Date.parse(served.createdOn) + this.options.propagationMs + this.options.rolloutMs <= now)
      return served
    this.rolloutTurn += 1
    return this.rolloutTurn % 2 === 0 ? served : (deployments[index - 1] as T)
  }

  /** A Preview's deployment that answers on its stable URL now (propagation as for versions). */
  servedPreviewDeployment(preview: Preview, now = Date.now()): PreviewDeployment | undefined {
    for (let i = preview.deployments.length - 1; i >= 0; i--) {
      const deployment = preview.deployments[i] as PreviewDeployment
      if (i === 0 || Date.parse(deployment.createdOn) + this.options.propagationMs <= now) return deployment
    }
    return undefined
  }

  version(worker: Worker, versionId: string): Version {
    const version = worker.versions.find((v) => v.id === versionId)
    if (!version) throw new ApiError(404, 10225, `Version ${versionId} not found for Worker ${worker.name}`)
    return version
  }

  /**
   * Creates a version from an upload (`PUT …/scripts/:name`, `POST …/versions`): resolves `inherit`
   * bindings and `keep_bindings` against the latest version, checks D1 ids and the assets token.
   */
  createVersion(
    worker: Worker,
    upload: {
      metadata: Record<string, unknown>
      modules: StoredModule[]
      triggeredBy: string
    },
  ): Version {
    const { metadata } = upload
    const previous = this.latestVersion(worker)
    const uploaded = (Array.isArray(metadata.bindings) ? metadata.bindings : []) as Binding[]
    const bindings: Binding[] = []
    const missing: string[] = []
    for (const binding of uploaded) {
      if (binding.type === 'inherit') {
        // A binding of type "inherit" takes the same-named binding of the previous version (the
        // latest one). Every missing one is an error of its own, in Cloudflare's words (as in
        // wrangler's deploy tests), which wrangler turns into "required secrets have not been set".
        const inherited = previous?.bindings.find((b) => b.name === binding.name)
        if (inherited) bindings.push({ ...inherited })
        else missing.push(binding.name)
        continue
      }
      if (binding.type === 'd1') {
        const id = String(binding.id ?? '')
        if (!this.d1.has(id)) {
          // wrangler rewrites this exact message for a binding named DB (code 10021).
          throw new ApiError(400, 10021, `binding ${binding.name} of type d1 must have a valid \`id\` specified`)
        }
      }
      bindings.push(clean(binding))
    }
    if (missing.length > 0) {
      const [first, ...rest] = missing.map((name) => ({
        code: 10057,
        message: `inherit binding '${name}' is invalid: previous version does not have binding named '${name}'`,
      }))
      throw new ApiError(400, 10057, first?.message ?? '', [], rest)
    }
    // keep_bindings: binding types carried over from the previous version when the upload does not
    // name them (wrangler sends secret_text always, plain_text/json with --keep-vars).
    const keep = new Set((metadata.keep_bindings as string[] | undefined) ?? [])
    for (const binding of previous?.bindings ?? []) {
      if (keep.has(binding.type) && !bindings.some((b) => b.name === binding.name)) bindings.push({ ...binding })
    }
    const mainModule = String(metadata.main_module ?? metadata.body_part ?? '')
    if (!upload.modules.some((m) => m.name === mainModule)) {
      throw new ApiError(400, 10021, `No such module "${mainModule}" in the upload (main_module)`)
    }
    const annotations = stringRecord(metadata.annotations)
    annotations['workers/triggered_by'] = upload.triggeredBy
    const version: Version = {
      kind: 'version',
      id: randomUUID(),
      number: worker.versions.length + 1,
      workerName: worker.name,
      createdOn: now(),
      source: 'wrangler',
      annotations,
      hasPreview: worker.previewsEnabled,
      mainModule,
      modules: upload.modules,
      bindings,
      compatibilityDate: String(metadata.compatibility_date ?? '2000-01-01'),
      compatibilityFlags: (metadata.compatibility_flags as string[] | undefined) ?? [],
      assets: this.resolveAssets(metadata.assets),
    }
    worker.versions.push(version)
    worker.modifiedOn = now()
    worker.etag = randomUUID().replaceAll('-', '')
    return version
  }

  resolveAssets(assets: unknown): AssetsRef | undefined {
    if (!assets || typeof assets !== 'object') return undefined
    const { jwt, config } = assets as { jwt?: string; config?: Record<string, unknown> }
    if (!jwt) return undefined
    const manifest = this.assetCompletions.get(jwt)
    if (!manifest) throw new ApiError(400, 10200, 'The assets completion token is invalid or expired')
    return { manifest, config: config ?? {} }
  }

  /**
   * A new version that copies the latest one with some bindings changed: `versions secret put`
   * (PATCH …/versions/latest), `secret put`/`secret delete` (which then also deploy it).
   */
  patchLatestVersion(
    worker: Worker,
    env: Record<string, Binding | null>,
    annotations: Record<string, string>,
    triggeredBy: string,
  ): Version {
    const latest = this.latestVersion(worker)
    if (!latest) {
      throw new ApiError(404, 10222, 'There are no versions of this Worker')
    }
    let bindings = latest.bindings.map((b) => ({ ...b }))
    for (const [name, value] of Object.entries(env)) {
      bindings = bindings.filter((b) => b.name !== name)
      if (value) bindings.push(clean({ ...value, name }))
    }
    const version: Version = {
      ...latest,
      id: randomUUID(),
      number: worker.versions.length + 1,
      createdOn: now(),
      source: 'wrangler',
      annotations: { ...stringRecord(annotations), 'workers/triggered_by': triggeredBy },
      hasPreview: worker.previewsEnabled,
      bindings,
    }
    worker.versions.push(version)
    worker.modifiedOn = now()
    return version
  }

  /**
   * A deployment: percentages over versions that must exist and sum to 100.
   *
   * Guess: a deployment that sends all traffic to a version older than every version of the
   * current deployment is a rollback (annotated as one), and Cloudflare then refuses with 10220
   * when a secret of the target differs from the current deployment's, unless `force` is set
   * (wrangler's rollback confirms and retries with ?force=true).
   */
  createDeployment(
    worker: Worker,
    request: { versions: { version_id: string; percentage: number }[]; message?: string; force?: boolean },
    triggeredBy?: string,
  ): Deployment {
    const versions = request.versions
    if (!Array.isArray(versions) || versions.length === 0 || versions.length > 2) {
      throw new ApiError(400, 10218, 'A deployment needs one or two versions')
    }
    const total = versions.reduce((sum, v) => sum + Number(v.percentage), 0)
    if (Math.abs(total - 100) > 1e-9) throw new ApiError(400, 10219, `Percentages must sum to 100 (got ${total})`)
    for (const v of versions) this.version(worker, v.version_id)
    const current = this.currentDeployment(worker)
    // Guess: a plain deployment (`versions deploy`) carries no trigger annotation; wrangler then
    // shows its source ("Wrangler").
    let trigger = triggeredBy
    const annotations: Record<string, string> = {}
    if (request.message) annotations['workers/message'] = request.message
    if (!triggeredBy && current && versions.length === 1) {
      const target = this.version(worker, versions[0]?.version_id ?? '')
      const currentNumbers = current.versions.map((v) => this.version(worker, v.version_id).number)
      if (currentNumbers.every((n) => target.number < n)) {
        trigger = 'rollback'
        annotations['workers/rollback_from'] = current.id
        if (!request.force) {
          const changed = changedSecrets(target, this.version(worker, current.versions[0]?.version_id ?? ''))
          if (changed.length > 0) {
            throw new ApiError(
              400,
              10220,
              // Cloudflare's own wording (as in wrangler's rollback tests).
              `A secret has changed since this version was active. If you are sure this is ok, add a ?force=true query parameter to allow the rollback. The following secrets have changed: ${changed.join(', ')}`,
            )
          }
        }
      }
    }
    if (trigger) annotations['workers/triggered_by'] = trigger
    const deployment: Deployment = {
      id: randomUUID(),
      createdOn: now(),
      source: 'wrangler',
      strategy: 'percentage',
      authorEmail: this.options.email,
      versions: versions.map((v) => ({ version_id: v.version_id, percentage: Number(v.percentage) })),
      annotations,
    }
    worker.deployments.push(deployment)
    return deployment
  }

  /** True when the latest version is the only one deployed: plain `secret put` is allowed then. */
  latestIsDeployed(worker: Worker): boolean {
    const latest = this.latestVersion(worker)
    const current = this.currentDeployment(worker)
    return Boolean(
      latest &&
        current &&
        current.versions.length === 1 &&
        current.versions[0]?.version_id === latest.id &&
        current.versions[0]?.percentage === 100,
    )
  }

  // ── Previews ───────────────────────────────────────────────────────────────────────────────

  preview(worker: Worker, identifier: string): Preview {
    const preview = worker.previews.find((p) => p.id === identifier || p.slug === identifier || p.name === identifier)
    if (!preview) throw new ApiError(404, 10025, `Preview "${identifier}" not found`)
    return preview
  }

  createPreview(worker: Worker, name: string, settings: Record<string, unknown>): Preview {
    if (!name) throw new ApiError(400, 10026, 'A Preview needs a name')
    const slug = previewSlug(name)
    if (worker.previews.some((p) => p.name === name || p.slug === slug)) {
      throw new ApiError(409, 10026, `A Preview named "${name}" already exists`)
    }
    const preview: Preview = { id: randomUUID(), name, slug, createdOn: now(), settings, deployments: [] }
    worker.previews.push(preview)
    return preview
  }

  /**
   * A Preview deployment. Its env is what the request carries; a binding of type "inherit" takes the
   * same-named binding of the Preview's previous deployment, never production's (Previews inherit
   * nothing from production).
   */
  createPreviewDeployment(
    worker: Worker,
    preview: Preview,
    request: { metadata: Record<string, unknown>; modules: StoredModule[] },
  ): PreviewDeployment {
    const { metadata } = request
    const previous = preview.deployments.at(-1)
    const env = (metadata.env ?? {}) as Record<string, Binding>
    const bindings: Binding[] = []
    for (const [name, binding] of Object.entries(env)) {
      if (binding.type === 'inherit') {
        const inherited = previous?.bindings.find((b) => b.name === name)
        if (inherited) bindings.push({ ...inherited })
        continue
      }
      if (binding.type === 'd1') {
        const id = String(binding.database_id ?? binding.id ?? '')
        if (!this.d1.has(id)) {
          throw new ApiError(400, 10021, `binding ${name} of type d1 must have a valid \`database_id\` specified`)
        }
        bindings.push(clean({ ...binding, name, id }))
        continue
      }
      bindings.push(clean({ ...binding, name }))
    }
    const modules = request.modules.length > 0 ? request.modules : (previous?.modules ?? [])
    const mainModule = String(metadata.main_module ?? previous?.mainModule ?? '')
    if (!modules.some((m) => m.name === mainModule)) {
      throw new ApiError(400, 10021, `No such module "${mainModule}" in the upload (main_module)`)
    }
    const deployment: PreviewDeployment = {
      kind: 'preview',
      id: randomUUID(),
      previewId: preview.id,
      workerName: worker.name,
      createdOn: now(),
      annotations: stringRecord(metadata.annotations),
      mainModule,
      modules,
      bindings,
      compatibilityDate: String(metadata.compatibility_date ?? previous?.compatibilityDate ?? '2000-01-01'),
      compatibilityFlags: (metadata.compatibility_flags as string[] | undefined) ?? previous?.compatibilityFlags ?? [],
      assets: metadata.assets ? this.resolveAssets(metadata.assets) : previous?.assets,
    }
    preview.deployments.push(deployment)
    return deployment
  }

  // ── D1 ─────────────────────────────────────────────────────────────────────────────────────

  database(idOrName: string): D1Database {
    const db = this.d1.get(idOrName) ?? [...this.d1.values()].find((d) => d.name === idOrName)
    if (!db) throw new ApiError(404, 7404, `The database ${idOrName} could not be found`)
    return db
  }

  createDatabase(name: string, options: { jurisdiction?: string; primaryLocationHint?: string } = {}): D1Database {
    if (!/^[a-z0-9][a-z0-9-_]*$/i.test(name)) throw new ApiError(400, 7400, `Invalid database name "${name}"`)
    if ([...this.d1.values()].some((d) => d.name === name)) {
      throw new ApiError(400, 7502, `A database with that name already exists: ${name}`)
    }
    const db: D1Database = { uuid: randomUUID(), name, createdAt: now(), ...options }
    this.d1.set(db.uuid, db)
    return db
  }

  // ── Custom domains ─────────────────────────────────────────────────────────────────────────

  zoneFor(hostname: string, zoneId?: string, zoneName?: string): Zone {
    const zone = this.options.zones.find(
      (z) =>
        (zoneId && z.id === zoneId) ||
        (zoneName && z.name === zoneName) ||
        (!zoneId && !zoneName && (hostname === z.name || hostname.endsWith(`.${z.name}`))),
    )
    if (!zone) {
      throw new ApiError(400, 100117, `Could not find a zone on this account for the hostname ${hostname}`)
    }
    return zone
  }
}

/** Names of secrets whose values differ between two versions. */
function changedSecrets(a: Version, b: Version): string[] {
  const secrets = (v: Version) =>
    new Map(v.bindings.filter((x) => x.type === 'secret_text').map((x) => [x.name, x.text]))
  const sa = secrets(a)
  const sb = secrets(b)
  const names = new Set([...sa.keys(), ...sb.keys()])
  return [...names].filter((n) => sa.get(n) !== sb.get(n)).sort()
}

function clean(binding: Binding): Binding {
  return Object.fromEntries(Object.entries(binding).filter(([, v]) => v !== undefined)) as Binding
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {}
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, String(v)]),
  )
}
