// Which version of the production Worker serves now, and what that version carries: read with
// `wrangler deployments status --json`, `wrangler versions view <id> --json` and `wrangler versions
// list --json` (`npx wrangler deployments status --help`, `npx wrangler versions view --help`,
// `npx wrangler versions list --help`). None writes an entry to WRANGLER_OUTPUT_FILE_PATH, so each
// runs with `--config` (no "redirected configuration" notice) and its stdout must be JSON and
// nothing else.
import { failure, jsonStdout, wrangler } from './lib.ts'

export interface Deployment {
  id: string
  created_on: string
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

/** wrangler's code for "this Worker does not exist" (WORKER_NOT_FOUND_ERR_CODE in its source). */
export const WORKER_NOT_FOUND = 10007

/**
 * What serves production now. "Nothing yet" only when wrangler says so (the Worker does not exist,
 * or has no deployment); any other failure throws, so a caller never mistakes "could not ask" for
 * "nothing to roll back to".
 */
export async function servingNow(config = 'wrangler.toml'): Promise<Serving> {
  const result = await wrangler(['deployments', 'status', '--json', '--config', config], { quiet: true })
  if (result.status !== 0) {
    const { code, message } = failure(result)
    if (code === WORKER_NOT_FOUND) return { state: 'none', reason: 'the Worker does not exist yet' }
    if (code === undefined && /has no deployments/.test(message)) {
      return { state: 'none', reason: 'the Worker has no deployment yet' }
    }
    throw new Error(`wrangler deployments status failed: ${message}${code ? ` [code ${code}]` : ''}`)
  }
  const deployment = jsonStdout<Deployment>(result, 'wrangler deployments status --json')
  const versions = Array.isArray(deployment?.versions) ? deployment.versions : []
  if (
    versions.length === 0 ||
    versions.some((v) => typeof v.version_id !== 'string' || typeof v.percentage !== 'number')
  ) {
    throw new Error(`wrangler deployments status --json gave no versions: ${result.stdout.slice(0, 500)}`)
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

/** One version as Cloudflare keeps it: its bindings, vars (with values) and secrets (names only). */
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

/** The Worker's recent versions, oldest first (`wrangler versions list --json`: the last ten). */
export async function listVersions(config = 'wrangler.toml'): Promise<ListedVersion[]> {
  const result = await wrangler(['versions', 'list', '--json', '--config', config], { quiet: true })
  if (result.status !== 0) throw new Error(`wrangler versions list failed: ${failure(result).message}`)
  const versions = jsonStdout<ListedVersion[]>(result, 'wrangler versions list --json')
  if (!Array.isArray(versions))
    throw new Error(`wrangler versions list --json gave no list: ${result.stdout.slice(0, 500)}`)
  return versions
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

export function describeServing(serving: Serving): string {
  if (serving.state === 'none') return `nothing (${serving.reason})`
  return serving.deployment.versions.map((v) => `${v.version_id} (${v.percentage}%)`).join(', ')
}
