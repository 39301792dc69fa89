/** The API's JSON shapes, as wrangler 4.151 reads them. */
import type {
  Account,
  Binding,
  Deployment,
  Preview,
  PreviewDeployment,
  StoredModule,
  Version,
  Worker,
} from '../model.ts'

/** Guess: handlers read from the uploaded code (Cloudflare learns them by running it). */
export function handlers(build: { mainModule: string; modules: StoredModule[] }): string[] {
  const main = build.modules.find((m) => m.name === build.mainModule)
  const text = main ? Buffer.from(main.content).toString('utf8') : ''
  return ['fetch', ...(/\bscheduled\b/.test(text) ? ['scheduled'] : [])]
}

export function publicBinding(binding: Binding): Binding {
  if (binding.type !== 'secret_text') return { ...binding }
  const { text: _text, ...rest } = binding
  return rest as Binding
}

export function versionJson(target: Worker, version: Version) {
  return {
    id: version.id,
    number: version.number,
    metadata: {
      author_id: 'stand-in-user',
      author_email: 'operator@stand-in.example',
      source: version.source,
      created_on: version.createdOn,
      modified_on: version.createdOn,
      has_preview: version.hasPreview,
    },
    annotations: version.annotations,
    resources: {
      script: { etag: target.etag, handlers: handlers(version), last_deployed_from: 'wrangler' },
      script_runtime: {
        compatibility_date: version.compatibilityDate,
        compatibility_flags: version.compatibilityFlags,
        usage_model: 'standard',
        limits: {},
      },
      bindings: version.bindings.map(publicBinding),
    },
  }
}

export function deploymentJson(deployment: Deployment) {
  return {
    id: deployment.id,
    source: deployment.source,
    strategy: deployment.strategy,
    author_email: deployment.authorEmail,
    created_on: deployment.createdOn,
    annotations: deployment.annotations,
    versions: deployment.versions,
  }
}

export function serviceJson(account: Account, target: Worker) {
  const latest = account.latestVersion(target)
  return {
    id: target.name,
    created_on: target.createdOn,
    modified_on: target.modifiedOn,
    default_environment: {
      environment: 'production',
      created_on: target.createdOn,
      modified_on: target.modifiedOn,
      script: {
        id: target.name,
        tag: target.id,
        tags: [],
        etag: target.etag,
        handlers: latest ? handlers(latest) : [],
        created_on: target.createdOn,
        modified_on: target.modifiedOn,
        usage_model: 'standard',
        compatibility_date: latest?.compatibilityDate,
        last_deployed_from: 'wrangler',
      },
    },
  }
}

export function workerJson(account: Account, target: Worker) {
  const sub = account.subdomainHost
  return {
    id: target.id,
    name: target.name,
    created_on: target.createdOn,
    updated_on: target.modifiedOn,
    logpush: Boolean(target.settings.logpush),
    observability: target.settings.observability ?? { enabled: false },
    tags: [],
    tail_consumers: [],
    subdomain: {
      enabled: target.workersDev,
      previews_enabled: target.previewsEnabled,
      ...(sub ? { preview_url_suffix: `-${target.name}.${sub}` } : {}),
    },
    previews_base_config: {},
  }
}

export function previewJson(account: Account, target: Worker, preview: Preview) {
  const sub = account.subdomainHost
  return {
    id: preview.id,
    name: preview.name,
    slug: preview.slug,
    worker_name: target.name,
    created_on: preview.createdOn,
    updated_on: preview.deployments.at(-1)?.createdOn ?? preview.createdOn,
    urls: sub && target.previewsEnabled ? [`https://${preview.slug}-${target.name}.${sub}`] : [],
    ...preview.settings,
  }
}

export function previewDeploymentJson(
  account: Account,
  target: Worker,
  preview: Preview,
  deployment: PreviewDeployment,
) {
  const sub = account.subdomainHost
  return {
    id: deployment.id,
    preview_id: preview.id,
    preview_name: preview.name,
    worker_name: target.name,
    created_on: deployment.createdOn,
    // Guess: a deployment's own URL is the first 8 characters of its id, like a version's.
    urls: sub && target.previewsEnabled ? [`https://${deployment.id.slice(0, 8)}-${target.name}.${sub}`] : [],
    compatibility_date: deployment.compatibilityDate,
    compatibility_flags: deployment.compatibilityFlags,
    main_module: deployment.mainModule,
    annotations: deployment.annotations,
    env: Object.fromEntries(
      deployment.bindings.map((b) => {
        const { name: _name, ...rest } = publicBinding(b)
        return [b.name, rest]
      }),
    ),
  }
}

export function databaseJson(db: { uuid: string; name: string; createdAt: string; jurisdiction?: string }) {
  return {
    uuid: db.uuid,
    name: db.name,
    created_at: db.createdAt,
    version: 'production',
    num_tables: 0,
    file_size: 0,
    running_in_region: 'WEUR',
    read_replication: { mode: 'disabled' },
    ...(db.jurisdiction ? { jurisdiction: db.jurisdiction } : {}),
  }
}

export function domainJson(domain: Account['domains'][number]) {
  return {
    id: domain.id,
    zone_id: domain.zoneId,
    zone_name: domain.zoneName,
    hostname: domain.hostname,
    service: domain.service,
    environment: domain.environment,
    enabled: domain.enabled,
    previews_enabled: domain.previewsEnabled,
    cert_id: `cert-${domain.id}`,
  }
}
