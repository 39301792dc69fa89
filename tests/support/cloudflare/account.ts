/**
 * The stand-in's account: Workers with their versions and deployments, D1 databases, custom
 * domains, assets, and the rules Cloudflare applies to them; no HTTP here. Rules from wrangler
 * 4.151's code and Cloudflare's documentation; "Guess:" marks what the stand-in had to guess.
 */
import { randomUUID } from 'node:crypto'
import { ApiError } from './http.ts'
import {
  type AccountOptions,
  type AssetsRef,
  type Binding,
  type CustomDomain,
  clean,
  type D1Database,
  type DatabaseState,
  type Deployment,
  type StoredModule,
  stringRecord,
  type Version,
  type Worker,
} from './model.ts'

const now = () => new Date().toISOString()

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
   * The deployment (of a Worker or a Preview) that answers requests now: the newest once it has
   * propagated; until then the one before it (a first deployment answers at once).
   */
  servedDeployment<T extends { createdOn: string }>(deployments: T[], now = Date.now()): T | undefined {
    for (let i = deployments.length - 1; i >= 0; i--) {
      const deployment = deployments[i] as T
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

  // ── D1 ─────────────────────────────────────────────────────────────────────────────────────

  database(idOrName: string): D1Database {
    const db = this.d1.get(idOrName) ?? [...this.d1.values()].find((d) => d.name === idOrName)
    if (!db) throw new ApiError(404, 7404, `The database ${idOrName} could not be found`)
    return db
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
