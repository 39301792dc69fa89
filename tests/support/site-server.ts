import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { expect } from '@playwright/test'
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
 * for the browser tests that need another configuration (Turnstile on).
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
      // No browser test needs the scheduled handler to run by itself.
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
