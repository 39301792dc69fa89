import { publicBinding } from './api/json.ts'
import { runQuery } from './d1.ts'
import type { AccountHost } from './host.ts'
import { type Binding, type CustomDomain, pick, type Version, varsOf, type Worker } from './model.ts'
import {
  type DeploymentView,
  type DomainView,
  type Fault,
  fromWire,
  type PreviewView,
  type VersionView,
  type WirePattern,
  type WorkerView,
} from './types.ts'

/** The calls a client may make, by name ("state.worker", "control.breakVersions", …). */
export function callsOf(host: AccountHost): Record<string, (...args: never[]) => unknown> {
  return {
    'state.workers': () => [...host.account.workers.values()].map((w) => workerView(host, w)),
    'state.worker': (name: string) => workerView(host, host.account.worker(name)),
    'state.servingAt': (url: string) => {
      const route = host.routeHost(new URL(url).hostname)
      if (route.kind === 'none') return { kind: 'none', ids: [], reason: route.reason }
      if (route.kind === 'preview') return { kind: 'preview', ids: [{ id: route.deployment.id, percentage: 100 }] }
      return { kind: 'version', ids: route.choices.map((c) => ({ id: c.version.id, percentage: c.percentage })) }
    },
    'state.previews': (workerName: string): PreviewView[] => {
      const target = host.account.worker(workerName)
      const sub = host.account.subdomainHost
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
          bindings: d.bindings.map(publicBinding),
        })),
      }))
    },
    'state.databases': () => [...host.account.d1.values()].map((d) => ({ uuid: d.uuid, name: d.name })),
    'state.query': async (database: string, sql: string, ...params: unknown[]) => {
      const db = host.account.database(database)
      const results = await host.runtime.withDatabase(db.uuid, (d1) => runQuery(d1, sql, params))
      return results.at(-1)?.results ?? []
    },
    'state.customDomains': () => host.account.domains.map((d) => domainView(host, d)),
    'state.secretValue': (workerName: string, versionId: string, name: string) => {
      const target = host.account.worker(workerName)
      return host.account.version(target, versionId).bindings.find((b) => b.name === name && b.type === 'secret_text')
        ?.text
    },
    'state.edgeRequests': () => [...host.edgeLog],
    'state.apiRequests': () => [...host.apiLog],
    'state.logs': () => [...host.runtime.logLines],
    'control.breakVersions': (rule: {
      message?: WirePattern
      vars?: Record<string, string>
      ids?: string[]
      paths?: WirePattern
    }) =>
      void host.brokenRules.push({
        ...rule,
        message: rule.message === undefined ? undefined : fromWire(rule.message),
        paths: rule.paths === undefined ? undefined : fromWire(rule.paths),
      }),
    'control.clearBrokenVersions': () => void host.brokenRules.splice(0),
    'control.issueCertificates': () => {
      for (const d of host.account.domains) d.certificateReadyAt = Math.min(d.certificateReadyAt, Date.now())
    },
    'control.setPropagation': (ms: number) => {
      host.account.options.propagationMs = ms
    },
    'control.setRollout': (ms: number) => {
      host.account.options.rolloutMs = ms
    },
    'control.protectWorker': (
      worker: string,
      token: { clientId: string; clientSecret: string; teamDomain?: string } | null,
    ) => {
      if (token) host.access.set(worker, { teamDomain: 'stand-in.cloudflareaccess.com', ...token })
      else host.access.delete(worker)
    },
    'control.setOutbound': (url: string | null) => {
      host.outboundUrl = url ?? undefined
    },
    'control.failNext': (method: string, path: WirePattern, fault: Fault = {}) =>
      void host.faults.push({
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
      const target = host.account.worker(workerName)
      const schedule = cron ?? target.schedules[0]?.cron
      if (!schedule || !target.schedules.some((s) => s.cron === schedule)) {
        throw new Error(`${workerName} has no Cron Trigger ${cron ?? ''}`.trim())
      }
      const deployment = host.account.currentDeployment(target)
      if (!deployment) throw new Error(`${workerName} has no deployment`)
      const version = pick(host.choicesOf(target, deployment))
      const result = await host.runtime.scheduled(host.runTarget(version), schedule)
      return { versionId: version.id, outcome: result.outcome }
    },
    'control.adopt': (options: {
      from: string
      worker: string
      databases?: Record<string, string>
      secrets: Record<string, string>
      message: string
    }) => adopt(host, options),
    'control.release': (options: { worker: string; message: string; vars?: Record<string, string | null> }) =>
      release(host, options),
    'control.createWorker': (name: string, settings: { workersDev: boolean; previewsEnabled: boolean }) =>
      void host.account.createWorker(name, settings.workersDev, settings.previewsEnabled),
    unknownRequests: () => [...host.unknown],
  }
}

function versionView(host: AccountHost, target: Worker, v: Version): VersionView {
  const sub = host.account.subdomainHost
  return {
    id: v.id,
    number: v.number,
    message: v.annotations['workers/message'],
    tag: v.annotations['workers/tag'],
    triggeredBy: v.annotations['workers/triggered_by'],
    createdOn: v.createdOn,
    vars: varsOf(v),
    secretNames: v.bindings.filter((b) => b.type === 'secret_text').map((b) => b.name),
    bindings: v.bindings.map(publicBinding),
    compatibilityDate: v.compatibilityDate,
    previewUrl: target.previewsEnabled && sub ? `https://${v.id.slice(0, 8)}-${target.name}.${sub}` : undefined,
    broken: host.isBroken(v),
  }
}

function workerView(host: AccountHost, target: Worker): WorkerView {
  const latest = host.account.latestVersion(target)
  const current = host.account.currentDeployment(target)
  const sub = host.account.subdomainHost
  return {
    name: target.name,
    workersDev: target.workersDev,
    previewsEnabled: target.previewsEnabled,
    url: target.workersDev && sub ? `https://${target.name}.${sub}` : undefined,
    schedules: target.schedules.map((s) => s.cron),
    latestVersion: latest && versionView(host, target, latest),
    deployment: current && deploymentView(current),
    versions: target.versions.map((v) => versionView(host, target, v)),
    deployments: target.deployments.map(deploymentView),
    settings: { ...target.settings },
  }
}

function domainView(host: AccountHost, d: CustomDomain): DomainView {
  const ready = Date.now() >= d.certificateReadyAt
  const target = host.account.workers.get(d.service)
  return {
    hostname: d.hostname,
    worker: d.service,
    zone: d.zoneName,
    certificateReady: ready,
    answers: ready && Boolean(target && host.account.currentDeployment(target)),
    replacedDnsRecord: d.replacedDnsRecord,
  }
}

/** The calls a client may make, by name ("state.worker", "control.breakVersions", …). */

/** control.adopt: copies another account's databases (schema and migrations) and its Worker's serving version. */
async function adopt(
  host: AccountHost,
  options: {
    from: string
    worker: string
    databases?: Record<string, string>
    secrets: Record<string, string>
    message: string
  },
): Promise<{ databases: Record<string, string>; version: string }> {
  const source = host.cloud.account(options.from)
  const ids = new Map<string, string>()
  const databases: Record<string, string> = {}
  for (const db of source.account.d1.values()) {
    const uuid = options.databases?.[db.name] ?? crypto.randomUUID()
    host.account.d1.set(uuid, { uuid, name: db.name, createdAt: new Date().toISOString() })
    ids.set(db.uuid, uuid)
    databases[db.name] = uuid
  }
  host.runtime.knowDatabases([...ids.values()])
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
    await host.runtime.withDatabase(to, async (d1) => {
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
  for (const [hash, asset] of source.account.assetStore) host.account.assetStore.set(hash, asset)
  const target = host.account.createWorker(options.worker, template.workersDev, template.previewsEnabled)
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
  host.account.createDeployment(target, { versions: [{ version_id: copy.id, percentage: 100 }] }, 'upload')
  host.runtime.warm(host.runTarget(copy))
  return { databases, version: copy.id }
}

/** control.release: a new version of the latest upload with vars changed, deployed at 100% (as `wrangler deploy`). */
function release(
  host: AccountHost,
  options: { worker: string; message: string; vars?: Record<string, string | null> },
): {
  version: string
} {
  const worker = host.account.worker(options.worker)
  const env = Object.fromEntries(
    Object.entries(options.vars ?? {}).map(([name, text]) => [
      name,
      text === null ? null : { name, type: 'plain_text', text },
    ]),
  )
  const version = host.account.patchLatestVersion(worker, env, { 'workers/message': options.message }, 'upload')
  host.account.createDeployment(worker, { versions: [{ version_id: version.id, percentage: 100 }] }, 'upload')
  host.runtime.warm(host.runTarget(version))
  return { version: version.id }
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
