// What the deploy scripts under scripts/ci/ share: running the pinned wrangler and reading its
// machine-readable output, reading Cloudflare's API with the job's token, the Access service
// token's headers, and GitHub Actions' outputs.
//
// Ids and URLs are read from the file wrangler writes when WRANGLER_OUTPUT_FILE_PATH is set (one
// JSON object a line: `{"type":"deploy","version_id":…}`, `{"type":"preview","preview_urls":[…]}`,
// `{"type":"command-failed","code":…}`), never from what it prints for people: its stdout mixes
// banners, tables and notices with any JSON. Commands that write no entry there (`deployments
// status`, `versions view`, `versions list`, `d1 execute`) are run with `--json` and an explicit
// `--config`, so stdout holds the JSON alone, and their stdout must parse whole.
import { spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface OutputEntry {
  type: string
  [key: string]: unknown
}

export interface WranglerResult {
  status: number
  stdout: string
  stderr: string
  /** What wrangler wrote to WRANGLER_OUTPUT_FILE_PATH, one entry a line. */
  entries: OutputEntry[]
}

export interface WranglerOptions {
  /** Extra environment (the Cloudflare token is inherited from the step's environment). */
  env?: Record<string, string>
  /** Written to wrangler's stdin (e.g. a secret for `secret put`); otherwise stdin is closed. */
  input?: string
  /** Print nothing of wrangler's own output (it is still returned). */
  quiet?: boolean
}

/** The pinned wrangler's launcher in this checkout's node_modules. */
export function wranglerBin(cwd = process.cwd()): string {
  const pkg = createRequire(join(cwd, 'package.json')).resolve('wrangler/package.json')
  return join(dirname(pkg), 'bin', 'wrangler.js')
}

/**
 * Runs `wrangler <args>` with the Node that runs this script (setup-node's Node 24 in CI, the
 * project's Node 24 under npm), non-interactively, and returns its output and output-file entries.
 * Its output is passed through to this process's, so a CI log shows what wrangler said.
 */
export function wrangler(args: string[], options: WranglerOptions = {}): Promise<WranglerResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wrangler-output-'))
  const outputFile = join(dir, 'output.jsonl')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [wranglerBin(), ...args], {
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        ...options.env,
        WRANGLER_OUTPUT_FILE_PATH: outputFile,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
      if (!options.quiet) process.stdout.write(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
      if (!options.quiet) process.stderr.write(chunk)
    })
    child.stdin.end(options.input ?? '')
    child.on('error', reject)
    child.on('close', (code) => {
      let entries: OutputEntry[] = []
      try {
        entries = readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as OutputEntry)
      } catch {}
      rmSync(dir, { recursive: true, force: true })
      resolve({ status: code ?? 1, stdout, stderr, entries })
    })
  })
}

/** The last output-file entry of one type. */
export function outputEntry<T extends OutputEntry>(result: WranglerResult, type: string): T | undefined {
  return result.entries.filter((entry) => entry.type === type).at(-1) as T | undefined
}

/** Why a wrangler command failed, from its `command-failed` entry: the API error code and message. */
export function failure(result: WranglerResult): { code?: number; message: string } {
  const failed = outputEntry<OutputEntry & { code?: number; message?: string }>(result, 'command-failed')
  return {
    code: typeof failed?.code === 'number' ? failed.code : undefined,
    message: failed?.message ?? (result.stderr.trim() || `wrangler exited with ${result.status}`),
  }
}

/** The JSON a `--json` command printed: the whole of stdout, or an error saying what came instead. */
export function jsonStdout<T>(result: WranglerResult, command: string): T {
  try {
    return JSON.parse(result.stdout) as T
  } catch {
    throw new Error(`${command} did not print JSON alone on stdout; it printed:\n${result.stdout.slice(0, 2000)}`)
  }
}

/** An error answer of Cloudflare's API: the HTTP status, and the first error's code and message. */
export class CloudflareApiError extends Error {
  readonly status: number
  readonly code: number | undefined
  constructor(status: number, code: number | undefined, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

/** How many times a call answered 429 or 5xx is tried in all, and the longest pause between tries. */
export const API_TRIES = 5
export const API_MAX_PAUSE_MS = 30_000

/**
 * The pause before try `attempt + 1` (1-based): the answer's `Retry-After` (seconds or an HTTP
 * date) when it gives one, else 1 s, 2 s, 4 s…; never more than API_MAX_PAUSE_MS.
 * Cloudflare answers 429 past its rate limit, with Retry-After:
 * https://developers.cloudflare.com/fundamentals/api/reference/limits/
 */
export function retryPauseMs(attempt: number, retryAfter: string | null, now = Date.now()): number {
  const raw = retryAfter?.trim()
  let wanted = 1000 * 2 ** (attempt - 1)
  if (raw) {
    const seconds = Number(raw)
    const date = Date.parse(raw)
    if (Number.isFinite(seconds) && seconds >= 0) wanted = seconds * 1000
    else if (Number.isFinite(date)) wanted = Math.max(0, date - now)
  }
  return Math.min(wanted, API_MAX_PAUSE_MS)
}

interface Envelope<T> {
  success?: boolean
  result?: T
  errors?: { code?: number; message?: string }[]
  result_info?: { page?: number; per_page?: number; total_pages?: number; count?: number; total_count?: number }
}

/**
 * A call of Cloudflare's API (https://developers.cloudflare.com/api/) under the job's account, as
 * wrangler reaches it: CLOUDFLARE_API_BASE_URL (default https://api.cloudflare.com/client/v4), the
 * token in CLOUDFLARE_API_TOKEN, the account in CLOUDFLARE_ACCOUNT_ID. A GET, or a POST of `body`
 * as JSON when there is one. Returns the whole envelope; an error answer throws CloudflareApiError.
 * A 429 or 5xx is tried again (API_TRIES in all), after the pause retryPauseMs gives, and reported
 * on the step's log.
 */
async function cloudflareCall<T>(path: string, body?: unknown): Promise<Envelope<T>> {
  const base = process.env.CLOUDFLARE_API_BASE_URL?.trim() || 'https://api.cloudflare.com/client/v4'
  const account = process.env.CLOUDFLARE_ACCOUNT_ID?.trim()
  const token = process.env.CLOUDFLARE_API_TOKEN?.trim()
  if (!account || !token) throw new Error('CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN must be set')
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(`${base}/accounts/${account}${path}`, {
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      signal: AbortSignal.timeout(30_000),
    })
    const envelope = (await answer.json().catch(() => null)) as Envelope<T> | null
    if (answer.ok && envelope?.success) return envelope
    const error = envelope?.errors?.[0]
    const said = `${body === undefined ? 'GET' : 'POST'} ${path}: ${answer.status}${error?.message ? ` ${error.message}` : ''}${error?.code ? ` [code ${error.code}]` : ''}`
    const again = answer.status === 429 || answer.status >= 500
    if (again && attempt < API_TRIES) {
      const pause = retryPauseMs(attempt, answer.headers.get('Retry-After'))
      console.log(`${said}; trying again in ${Math.ceil(pause / 1000)} s (try ${attempt + 1} of ${API_TRIES})`)
      await new Promise((resolve) => setTimeout(resolve, pause))
      continue
    }
    throw new CloudflareApiError(answer.status, typeof error?.code === 'number' ? error.code : undefined, said)
  }
}

/** A call of Cloudflare's API (cloudflareCall): the envelope's `result`. */
export async function cloudflareApi<T>(path: string, body?: unknown): Promise<T> {
  return (await cloudflareCall<T>(path, body)).result as T
}

/**
 * The rows of one SQL statement on a D1 database, through the API's query route, the one `wrangler
 * d1 execute --remote --command` calls:
 * https://developers.cloudflare.com/api/resources/d1/subresources/database/methods/query/
 */
export async function d1Query<Row>(databaseId: string, sql: string): Promise<Row[]> {
  const batches = await cloudflareApi<{ results?: Row[] }[]>(`/d1/database/${encodeURIComponent(databaseId)}/query`, {
    sql,
  })
  return batches?.[0]?.results ?? []
}

/**
 * Every page of a list Cloudflare's API pages (`page`/`per_page`, `result_info.total_pages`):
 * `items` picks a page's entries from its `result`. Stops at `maxPages` (a list that never ends).
 */
export async function cloudflareApiAll<R, T>(
  path: string,
  items: (result: R) => T[] | undefined,
  maxPages = 100,
): Promise<T[]> {
  const all: T[] = []
  for (let page = 1; page <= maxPages; page++) {
    const glue = path.includes('?') ? '&' : '?'
    const body = await cloudflareCall<R>(`${path}${glue}page=${page}`)
    const got = items(body.result as R)
    if (!Array.isArray(got)) throw new Error(`GET ${path}: page ${page} came with no list`)
    all.push(...got)
    const info = body.result_info
    const pages =
      info?.total_pages ?? (info?.total_count && info.per_page ? Math.ceil(info.total_count / info.per_page) : 1)
    if (page >= pages || got.length === 0) return all
  }
  throw new Error(`GET ${path}: more than ${maxPages} pages`)
}

/**
 * The headers that let CI through Cloudflare Access (a service token), when both
 * CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET are set. Cloudflare's documented header names:
 * https://developers.cloudflare.com/cloudflare-one/access-controls/service-credentials/service-tokens/
 */
export function accessHeaders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const id = env.CF_ACCESS_CLIENT_ID?.trim()
  const secret = env.CF_ACCESS_CLIENT_SECRET?.trim()
  if (!id && !secret) return {}
  if (!id || !secret)
    throw new Error('Set both CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET (an Access service token), or neither.')
  return { 'CF-Access-Client-Id': id, 'CF-Access-Client-Secret': secret }
}

const inActions = () => process.env.GITHUB_ACTIONS === 'true'

/** A failure the run must show: a GitHub error annotation in Actions, a plain line elsewhere. */
export function reportError(message: string): void {
  console.error(inActions() ? `::error::${message.replaceAll('\n', '%0A')}` : `ERROR: ${message}`)
}

export function reportNotice(message: string): void {
  console.log(inActions() ? `::notice::${message.replaceAll('\n', '%0A')}` : message)
}

/** A step output (`steps.<id>.outputs.<name>`), when run as a GitHub Actions step. */
export function setOutput(name: string, value: string): void {
  if (/[\r\n]/.test(value)) throw new Error(`output ${name} must be one line`)
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`)
}

/** A line in the run's summary page, when run as a GitHub Actions step. */
export function summary(markdown: string): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`)
}

/** Stops the script with a message (exit 1). */
export function fail(message: string): never {
  reportError(message)
  process.exit(1)
}
