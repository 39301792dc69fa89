/**
 * One site for both engines, started the way the README and docs/inbox.md tell a person to:
 *
 *   npm run admin-token      a stand-in Access key server; it prints the ACCESS_* lines and a token
 *   (those lines, the form service's address and its key, in the site's variables)
 *   npm start                the production build on workerd, at http://localhost:<PORT>
 *
 * with a stand-in form service (tests/support/form-service.ts) that the contact form delivers to,
 * and, in front of the site, a stand-in for Cloudflare Access (tests/support/front-proxy.ts) that
 * adds the operator's token to every request, as Access does.
 * The variables go in a file of their own (ENV_FILE, as the Playwright suite's servers do), so the
 * developer's own .dev.vars is never read or touched.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startFormService } from '../support/form-service'
import { startFrontProxy } from '../support/front-proxy'
import { ENGINES_DIR, ENGINES_PORTS, type EnginesSite } from './ports'

/** The form service's key, as the site holds it; it must never reach a browser. */
const FORM_KEY = 'engines-stand-in-key-7d2e9c41'

interface Started {
  process: ChildProcess
  output: () => string
  stop: () => void
}

/** Starts `npm run <script>` in its own process group, keeping what it prints. */
function npmRun(args: string[], env: Record<string, string>): Started {
  let output = ''
  const child = spawn('npm', args, { detached: true, env: { ...process.env, ...env } })
  // Its own process group outlives this one: stopped on exit too, whatever ends the run.
  process.once('exit', () => stop())
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  function stop() {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
  return { process: child, output: () => output, stop }
}

/** Resolves once `ready` holds for what a process printed; fails when it exits first or after `timeout`. */
async function printed(started: Started, what: string, ready: (output: string) => boolean, timeout: number) {
  const until = Date.now() + timeout
  while (!ready(started.output())) {
    if (started.process.exitCode !== null || Date.now() > until) {
      throw new Error(`${what} did not get ready. It printed:\n${started.output().slice(-3000)}`)
    }
    await new Promise((done) => setTimeout(done, 200))
  }
}

export default async function setup(project: TestProject) {
  const stops: (() => unknown)[] = []
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop()
  }
  try {
    rmSync(ENGINES_DIR, { recursive: true, force: true })
    mkdirSync(ENGINES_DIR, { recursive: true })

    const formService = await startFormService(0)
    stops.push(() => formService.close())

    // docs/inbox.md, "Locally": `npm run admin-token` (here on this suite's port).
    const adminToken = npmRun(['run', 'admin-token', '--', '--port', String(ENGINES_PORTS.accessKeys)], {})
    stops.push(adminToken.stop)
    await printed(adminToken, '`npm run admin-token`', (output) => output.includes('From a terminal'), 30_000)
    const accessLines = adminToken.output().match(/^ACCESS_[A-Z_]+=.*$/gm) ?? []
    const token = /^\s*(eyJ[\w-]+\.[\w-]+\.[\w-]+)\s*$/m.exec(adminToken.output())?.[1]
    if (accessLines.length !== 3 || !token) {
      throw new Error(`\`npm run admin-token\` printed no ACCESS_* lines or no token:\n${adminToken.output()}`)
    }

    const envFile = resolve(ENGINES_DIR, 'site.vars')
    writeFileSync(
      envFile,
      [
        'CONTACT_DELIVERY=form-service',
        `CONTACT_FORM_ENDPOINT=${formService.url}`,
        `CONTACT_FORM_ACCESS_KEY=${FORM_KEY}`,
        ...accessLines,
        '',
      ].join('\n'),
    )

    // The README's `npm start` (PORT moves it); `npm test` has built dist/ already.
    const site = npmRun(['start'], {
      PORT: String(ENGINES_PORTS.site),
      SKIP_BUILD: '1',
      ENV_FILE: envFile,
      PERSIST_TO: resolve(ENGINES_DIR, 'state'),
    })
    stops.push(site.stop)
    const origin = `http://localhost:${ENGINES_PORTS.site}`
    await printed(site, `\`npm start\` on ${origin}`, (output) => output.includes(`Ready on ${origin}`), 120_000)
    const health = await fetch(`${origin}/api/health`)
    if (health.status !== 200) throw new Error(`${origin}/api/health answered ${health.status}`)

    // Cloudflare Access's part: the operator's token on every request (tests/support/front-proxy.ts).
    const proxy = await startFrontProxy(ENGINES_PORTS.accessProxy, origin, {
      headers: { 'Cf-Access-Jwt-Assertion': token },
    })
    stops.push(() => proxy.close())

    const provided: EnginesSite = {
      origin,
      operatorOrigin: proxy.origin,
      token,
      formService: formService.url.replace(/\/submit$/, ''),
      formKey: FORM_KEY,
      webDriverPort: ENGINES_PORTS.webDriver,
    }
    project.provide('enginesSite', provided)
  } catch (error) {
    await teardown()
    throw error
  }
  return teardown
}
