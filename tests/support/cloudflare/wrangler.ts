/**
 * Runs the project's pinned wrangler as a child process against a stand-in account, with
 * WRANGLER_OUTPUT_FILE_PATH set, and returns what it printed and its machine-readable entries.
 *
 * It runs `wrangler` with the repository's node_modules/.bin first on PATH, which is what
 * `npx wrangler` does: the pinned wrangler, under the pinned Node 24 (its `#!/usr/bin/env node`
 * finds node_modules/.bin/node). Unlike `npx`, this also works from a copy of the project outside
 * the repository (npx would try to download wrangler there).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileCache } from '../../../scripts/test.ts'

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

export interface WranglerRun {
  code: number
  stdout: string
  stderr: string
  /** The entries wrangler wrote to WRANGLER_OUTPUT_FILE_PATH (one JSON object a line). */
  output: Record<string, unknown>[]
  /** The first output entry of a type (e.g. "deploy", "version-upload", "preview"). */
  entry<T = Record<string, unknown>>(type: string): T | undefined
  /** How long the command took. */
  durationMs: number
}

export interface WranglerOptions {
  /** Working directory (default: the repository root). */
  cwd?: string
  /** Written to wrangler's stdin (e.g. a secret value). */
  input?: string
  /** Extra environment variables. */
  env?: Record<string, string>
  timeoutMs?: number
}

export function runWrangler(
  cloudflare: { env: Record<string, string> },
  args: string[],
  options: WranglerOptions = {},
): Promise<WranglerRun> {
  return runCommand('wrangler', args, cloudflare, options)
}

/**
 * Any command (e.g. `npm run smoke -- …`, `node scripts/x.ts`) with the stand-in's environment, the
 * repository's node_modules/.bin first on PATH, and an output file.
 */
export function runCommand(
  command: string,
  args: string[],
  cloudflare: { env: Record<string, string> },
  options: WranglerOptions = {},
): Promise<WranglerRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wrangler-run-'))
  const outputFile = join(dir, 'output.jsonl')
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: {
        ...process.env,
        PATH: [join(REPO_ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
        ...cloudflare.env,
        WRANGLER_OUTPUT_FILE_PATH: outputFile,
        WRANGLER_LOG_PATH: join(dir, 'logs'),
        // Node's on-disk compile cache: wrangler is a 15 MB bundle; this spares recompiling it each run.
        NODE_COMPILE_CACHE: compileCache(),
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')} timed out\n${stdout}\n${stderr}`))
    }, options.timeoutMs ?? 120_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      const output = existsSync(outputFile)
        ? readFileSync(outputFile, 'utf8')
            .split('\n')
            .filter((line) => line.trim())
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : []
      rmSync(dir, { recursive: true, force: true })
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        output,
        entry: <T>(type: string) => output.find((e) => e.type === type) as T | undefined,
        durationMs: Date.now() - started,
      })
    })
    child.stdin.end(options.input ?? '')
  })
}
