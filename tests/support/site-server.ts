import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { expect } from '@playwright/test'
import { writeBesideBuild } from '../../scripts/local-vars.mjs'
import { PORT_BASE } from './servers'

export interface SiteServer {
  origin: string
  /** Everything the server printed so far (wrangler and the Worker's console). */
  output(): string
  stop(): void
  /** Resolves once the server's process has exited. */
  stopped(): Promise<void>
}

/**
 * Starts a private production server (`npm start` on the built dist/) with its own variables,
 * for tests that need another configuration or need to read the Worker's log lines.
 */
export async function startSiteServer(
  name: string,
  port: number,
  vars: Record<string, string>,
  options: { persistTo?: string; processEnv?: Record<string, string> } = {},
): Promise<SiteServer> {
  const dir = `.wrangler/e2e-${PORT_BASE}`
  mkdirSync(dir, { recursive: true })
  const envFile = `${dir}/${name}.vars`
  // The digest and the alerts are off unless a test turns them on: each would otherwise add its
  // own message to the ones a test reads from wrangler's local e-mail files (docs/notices.md).
  const all = { DIGEST_HOUR_UTC: 'off', ALERT_AFTER_FAILURES: 'off', ...vars }
  writeFileSync(
    envFile,
    `${Object.entries(all)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n')}\n`,
  )
  const origin = `http://localhost:${port}`
  // wrangler dev very rarely stalls during start-up (seen once in a full run, when two private
  // servers started in the same second): such a start is abandoned and tried once more.
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer(port, envFile, options.persistTo ?? stateDir(port), options.processEnv)
    try {
      await waitUntilServing(origin, 50_000)
      return server
    } catch (error) {
      server.stop()
      const tail = server.output().slice(-1500)
      if (attempt === 2) throw new Error(`The ${name} server did not start on ${origin}:\n${tail}`, { cause: error })
      console.warn(`The ${name} server did not start within 50 s; starting it again. Its output:\n${tail}`)
    }
  }
}

/**
 * Writes a configuration for a private server beside the build (`CONFIG=` for `npm start`), as
 * `npm start` writes its own: only when its content changes, and whole, so that no other test
 * server is restarted mid-request (scripts/local-vars.mjs, writeBesideBuild).
 */
export function writeServedConfig(path: string, config: unknown): void {
  writeBesideBuild(path, JSON.stringify(config))
}

/** Where a test server on `port` keeps its local state (the D1 enquiry database among it). */
export function stateDir(port: number): string {
  return `.wrangler/e2e-${PORT_BASE}/state-${port}`
}

function spawnServer(
  port: number,
  envFile: string,
  persistTo: string,
  processEnv: Record<string, string> = {},
): SiteServer {
  let output = ''
  const server: ChildProcess = spawn('npm', ['start'], {
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      SKIP_BUILD: '1',
      ENV_FILE: envFile,
      PERSIST_TO: persistTo,
      WRANGLER_LOG_LEVEL: 'info',
      // The tests run the scheduled handler when they mean to (runCron in tests/support/enquiries.ts).
      CRON_INTERVAL: '0',
      ...processEnv,
    },
  })
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  server.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  return {
    origin: `http://localhost:${port}`,
    output: () => output,
    stop: () => {
      try {
        if (server.pid) process.kill(-server.pid, 'SIGTERM')
      } catch {
        // Already gone (a start that failed exits by itself).
      }
    },
    stopped: () =>
      new Promise<void>((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) resolve()
        else server.once('exit', () => resolve())
      }),
  }
}

/** Waits until a site answers its health endpoint with 200. */
export async function waitUntilServing(origin: string, timeout: number): Promise<void> {
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${origin}/api/health`)).status
        } catch {
          return 0
        }
      },
      { timeout, intervals: [500] },
    )
    .toBe(200)
}

/** The structured JSON log lines (one object per line) in a server's output. */
export function jsonLogLines(output: string): Record<string, unknown>[] {
  return output
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '') // colour codes
    .split('\n')
    .map((line) => line.slice(line.indexOf('{')))
    .filter((line) => line.startsWith('{"level"'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>]
      } catch {
        return []
      }
    })
}

/**
 * The file of the latest message wrangler's local `send_email` wrote, from the path it logs
 * ("Email: …/*.eml"); it may log the path a moment after the Worker's own lines.
 */
export async function lastEmailFile(server: SiteServer): Promise<string> {
  const files = () => [...server.output().matchAll(/Email: (\S+\.eml)/g)].map((match) => match[1] ?? '')
  await expect.poll(() => files().length, { timeout: 10_000 }).toBeGreaterThan(0)
  return files().at(-1) ?? ''
}

/**
 * Waits until exactly `count` of a server's JSON log lines match, and returns them: a line reaches
 * the output a moment after the answer it belongs to, or after the row it describes is stored.
 */
export async function loggedLines(
  output: () => string,
  match: (line: Record<string, unknown>) => boolean,
  count = 1,
): Promise<Record<string, unknown>[]> {
  await expect.poll(() => jsonLogLines(output()).filter(match).length, { timeout: 10_000 }).toBe(count)
  return jsonLogLines(output()).filter(match)
}
