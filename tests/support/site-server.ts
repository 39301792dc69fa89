import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { expect } from '@playwright/test'
import { PORT_BASE } from './servers'

export interface SiteServer {
  origin: string
  /** Everything the server printed so far (wrangler and the Worker's console). */
  output(): string
  stop(): void
}

/**
 * Starts a private production server (`npm start` on the built dist/) with its own variables,
 * for tests that need another configuration or need to read the Worker's log lines.
 */
export async function startSiteServer(name: string, port: number, vars: Record<string, string>): Promise<SiteServer> {
  const dir = `.wrangler/e2e-${PORT_BASE}`
  mkdirSync(dir, { recursive: true })
  const envFile = `${dir}/${name}.vars`
  writeFileSync(
    envFile,
    `${Object.entries(vars)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n')}\n`,
  )
  let output = ''
  const server: ChildProcess = spawn('npm', ['start'], {
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      SKIP_BUILD: '1',
      ENV_FILE: envFile,
      PERSIST_TO: `${dir}/state-${port}`,
      WRANGLER_LOG_LEVEL: 'info',
    },
  })
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  server.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const origin = `http://localhost:${port}`
  await waitUntilServing(origin, 90_000)
  return {
    origin,
    output: () => output,
    stop: () => {
      if (server.pid) process.kill(-server.pid, 'SIGTERM')
    },
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
