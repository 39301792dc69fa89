// Which version of the production Worker serves now, and what that version carries, read from
// Cloudflare's API (the Worker's deployments, newest first; one version; its deployable versions)
// in one of two ways:
//   - `api`: the API itself, with CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID, for the CI jobs
//     (scripts/ci/production.ts, rollback.ts), which read what serves before and after each step,
//     and the versions list for the summary;
//   - `wrangler`: `wrangler deployments status --json` and `wrangler versions view <id> --json`,
//     for an operator's shell, where `npx wrangler login` may be the only credential (`npm run
//     enquiries -- setup --remote`). Neither writes an entry to WRANGLER_OUTPUT_FILE_PATH, so each
//     runs with `--config` (no "redirected configuration" notice) and its stdout must be JSON and
//     nothing else.
// The API routes are the ones wrangler 4.151 calls for `deployments status` and `versions list`
// (fetchLatestDeployment, fetchDeployableVersions in its source).
import { readWranglerConfig } from '../ops-config.ts'
import { CloudflareApiError, cloudflareApi, cloudflareApiAll, failure, jsonStdout, wrangler } from './lib.ts'

export interface Deployment {
  id: string
  created_on: string
  author_email?: string
  versions: { version_id: string; percentage: number }[]
  annotations?: Record<string, string>
}

export type Serving =
  | { state: 'none'; reason: string }
  | {
      state: 'serving'
      deployment: Deployment /** The version with the largest share (100% unless split). */
      main: string
    }

/**
 * Cloudflare's codes for "this Worker does not exist": 10007, and 10090, which the services routes
 * answer (WORKER_NOT_FOUND_ERR_CODE and WORKER_LEGACY_ENVIRONMENT_NOT_FOUND_ERR_CODE: wrangler's
 * isWorkerNotFoundError accepts both).
 */
export const WORKER_NOT_FOUND = [10007, 10090] as const

export const workerNotFound = (code: number | undefined): boolean =>
  code !== undefined && (WORKER_NOT_FOUND as readonly number[]).includes(code)

export type Reader = 'api' | 'wrangler'

/** The Worker a configuration names (wrangler.toml's `name`). */
function workerName(config: string): string {
  const name = readWranglerConfig(config).name
  if (typeof name !== 'string' || !name) throw new Error(`${config} names no Worker`)
  return encodeURIComponent(name)
}

/** The latest deployment, or why there is none; throws when it cannot be read. */
async function latestDeployment(reader: Reader, config: string): Promise<Deployment | { none: string }> {
  if (reader === 'api') {
    try {
      // Newest first, the one serving at the top: the first answer holds it, whatever follows.
      const { deployments } = await cloudflareApi<{ deployments: Deployment[] }>(
        `/workers/scripts/${workerName(config)}/deployments`,
      )
      return deployments?.[0] ?? { none: 'the Worker has no deployment yet' }
    } catch (error) {
      if (error instanceof CloudflareApiError && workerNotFound(error.code))
        return { none: 'the Worker does not exist yet' }
      throw new Error(`reading the deployments failed: ${(error as Error).message}`)
    }
  }
  const result = await wrangler(['deployments', 'status', '--json', '--config', config], { quiet: true })
  if (result.status !== 0) {
    const { code, message } = failure(result)
    if (workerNotFound(code)) return { none: 'the Worker does not exist yet' }
    if (code === undefined && /has no deployments/.test(message)) return { none: 'the Worker has no deployment yet' }
    throw new Error(`wrangler deployments status failed: ${message}${code ? ` [code ${code}]` : ''}`)
  }
  return jsonStdout<Deployment>(result, 'wrangler deployments status --json')
}

/**
 * What serves production now. "Nothing yet" only when Cloudflare says so (the Worker does not
 * exist, or has no deployment); any other failure throws, so a caller never mistakes "could not
 * ask" for "nothing to roll back to".
 */
export async function servingNow(reader: Reader, config = 'wrangler.toml'): Promise<Serving> {
  const deployment = await latestDeployment(reader, config)
  if ('none' in deployment) return { state: 'none', reason: deployment.none }
  const versions = Array.isArray(deployment?.versions) ? deployment.versions : []
  if (
    versions.length === 0 ||
    versions.some((v) => typeof v.version_id !== 'string' || typeof v.percentage !== 'number')
  ) {
    throw new Error(`the latest deployment lists no versions: ${JSON.stringify(deployment).slice(0, 500)}`)
  }
  const main = [...versions].sort((a, b) => b.percentage - a.percentage)[0]?.version_id as string
  return { state: 'serving', deployment, main }
}

/** Whether two readings of what serves are the same deployment. */
export function sameServing(a: Serving, b: Serving): boolean {
  if (a.state === 'none' || b.state === 'none') return a.state === b.state
  return a.deployment.id === b.deployment.id
}

export interface VersionBinding {
  type: string
  name: string
  text?: string
}

export interface Version {
  id: string
  number?: number
  annotations?: Record<string, string>
  resources: { bindings: VersionBinding[] }
}

/** One version as Cloudflare keeps it: its bindings, vars (with values) and secrets (names only), through wrangler. */
export async function viewVersion(id: string, config = 'wrangler.toml'): Promise<Version> {
  const result = await wrangler(['versions', 'view', id, '--json', '--config', config], { quiet: true })
  if (result.status !== 0) throw new Error(`wrangler versions view ${id} failed: ${failure(result).message}`)
  const version = jsonStdout<Version>(result, 'wrangler versions view --json')
  if (!Array.isArray(version?.resources?.bindings)) {
    throw new Error(`wrangler versions view --json gave no bindings: ${result.stdout.slice(0, 500)}`)
  }
  return version
}

export interface ListedVersion {
  id: string
  number?: number
  metadata?: { created_on?: string }
  annotations?: Record<string, string>
}

/**
 * The Worker's ten most recent versions, oldest first, as `wrangler versions list --json` gives them,
 * from the API: every page of the list (it is paged, `result_info`), so the newest are never cut off.
 */
export async function listVersions(config = 'wrangler.toml'): Promise<ListedVersion[]> {
  const items = await cloudflareApiAll<{ items?: ListedVersion[] }, ListedVersion>(
    `/workers/scripts/${workerName(config)}/versions?deployable=true`,
    (result) => result?.items,
  )
  // wrangler's own order and cut (versionsListHandler: sorted by created_on, the last ten).
  return [...items]
    .sort((a, b) => String(a.metadata?.created_on).localeCompare(String(b.metadata?.created_on)))
    .slice(-10)
}

/** The commit a CI deploy names at the start of its version's message (`main <sha>`, .github/workflows/ci.yml). */
const MAIN_COMMIT = /^main ([0-9a-f]{40})\b/

/**
 * The commit whose build a version runs: the one its message names, or, for a version without one
 * (a secret change: `wrangler secret put` copies the latest upload's code and names no commit), the
 * one the newest version before it names. `from` is the version whose message said so.
 */
export function builtFrom(versions: ListedVersion[], id: string): { commit: string; from: string } | undefined {
  const index = versions.findIndex((v) => v.id === id)
  if (index < 0) return undefined
  for (let i = index; i >= 0; i--) {
    const version = versions[i] as ListedVersion
    const commit = MAIN_COMMIT.exec(version.annotations?.['workers/message'] ?? '')?.[1]
    if (commit) return { commit, from: version.id }
  }
  return undefined
}

/** Who made the deployment serving now, and how: for a job that finds production changed under it. */
export function describeDeployment(serving: Serving): string {
  if (serving.state === 'none') return `nothing serves (${serving.reason})`
  const { deployment } = serving
  const how = deployment.annotations?.['workers/triggered_by'] ?? 'a deployment'
  const message = deployment.annotations?.['workers/message']
  return `deployment ${deployment.id} (${how}${message ? `: "${message}"` : ''}), made ${deployment.created_on} by ${deployment.author_email ?? 'an unknown author'}, serving ${describeServing(serving)}`
}

export function describeServing(serving: Serving): string {
  if (serving.state === 'none') return `nothing (${serving.reason})`
  return serving.deployment.versions.map((v) => `${v.version_id} (${v.percentage}%)`).join(', ')
}
