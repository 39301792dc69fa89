// Which version of the production Worker serves now, and what that version carries: read with
// `wrangler deployments status --json` and `wrangler versions view <id> --json` (`npx wrangler
// deployments status --help`, `npx wrangler versions view --help`). Neither writes an entry to
// WRANGLER_OUTPUT_FILE_PATH, so both run with `--config` (no "redirected configuration" notice)
// and their stdout must be JSON and nothing else.
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

export function describeServing(serving: Serving): string {
  if (serving.state === 'none') return `nothing (${serving.reason})`
  return serving.deployment.versions.map((v) => `${v.version_id} (${v.percentage}%)`).join(', ')
}
