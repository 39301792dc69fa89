/**
 * One site for both engines, started in a checkout of its own (tests/support/checkout.ts: the
 * developer's `.dev.vars`, dist/ and database are never touched) as the README and docs/desk.md
 * tell a person to:
 *
 *   npm run admin-token      a stand-in Access key server; it prints the ACCESS_* lines and a token
 *   .dev.vars                those lines, and the form service's address and key
 *   PORT=<port> SKIP_BUILD=1 npm start
 *                            the production build on workerd, at http://localhost:<port>: the build
 *                            `npm test` made (its dist/, copied in), which the browser suite serves
 *                            too. `npm start` building in a fresh checkout is walked once, by
 *                            tests/e2e/local-doors.spec.ts.
 *
 * with a stand-in form service (tests/support/form-service.ts) that the contact form delivers to,
 * and, in front of the site, a stand-in for Cloudflare Access (tests/support/front-proxy.ts) that
 * adds the operator's token to every request, as Access does.
 */
import { existsSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { checkout, type Running } from '../support/checkout'
import { startFormService } from '../support/form-service'
import { startFrontProxy } from '../support/front-proxy'
import { temporaryFolderForRun } from '../support/run-tmpdir'
import { ENGINES_PORTS, type EnginesSite } from './ports'

/** The form service's key, as the site holds it; it must never reach a browser. */
const FORM_KEY = 'engines-stand-in-key-7d2e9c41'

/** Stops a running command also when this process ends some other way than by the teardown. */
function stopOnExit(running: Running): Running {
  const stopNow = () => void running.stop()
  process.once('exit', stopNow)
  return running
}

/** Resolves once the site answers its health endpoint with 200. */
async function serving(origin: string, site: Running, timeout: number) {
  const deadline = Date.now() + timeout
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/health`)).status === 200) return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${origin} did not answer. npm start printed:\n${site.output()}`)
    await new Promise((done) => setTimeout(done, 300))
  }
}

/**
 * The engines test the production build that `npm start` makes. Run from a test runner that set
 * NODE_ENV=test, it would build React's development bundle instead (tests/support/shell-env.ts).
 */
async function productionBuild(origin: string) {
  const html = await (await fetch(`${origin}/`)).text()
  const scripts = [...new Set(html.match(/\/assets\/[\w-]+\.js/g) ?? [])]
  if (scripts.length === 0) throw new Error(`${origin}/ names no script under /assets/`)
  for (const script of scripts) {
    const code = await (await fetch(`${origin}${script}`)).text()
    // A message only React's development bundle carries; the production one has an error number.
    if (code.includes('Invalid hook call'))
      throw new Error(`npm start served React's development bundle (${script}), not the production build`)
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync('dist/server/wrangler.json'))
    throw new Error('The engine suite serves the production build: npm run build first (npm test does)')
  const stops: (() => unknown)[] = []
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop()
  }
  try {
    // The run's temporary files in a folder of its own, removed last (xvfb-run, stopped with its
    // process group by webkit.test.ts, leaves its folder behind).
    stops.push(temporaryFolderForRun('engines'))
    const repo = checkout('engines')
    stops.push(() => repo.remove())

    const formService = await startFormService(0, '127.0.0.1', { plan: 'paid' })
    stops.push(() => formService.close())

    // docs/desk.md, "Locally" (on this suite's port).
    const keys = stopOnExit(repo.spawn(`npm run admin-token -- --port ${ENGINES_PORTS.accessKeys}`))
    stops.push(() => keys.stop())
    const [, token = ''] = await keys.waitFor(/Open the desk with this token[^\n]*\n\n(\S+)\n/, 60_000)
    const accessLines = keys.output().match(/^ACCESS_[A-Z_]+=.*$/gm) ?? []
    if (accessLines.length !== 3) throw new Error(`npm run admin-token printed:\n${keys.output()}`)

    // "Put the three printed ACCESS_* lines in .dev.vars", with the contact form's delivery.
    repo.write(
      '.dev.vars',
      [
        'CONTACT_DELIVERY=form-service',
        `CONTACT_FORM_ENDPOINT=${formService.url}`,
        `CONTACT_FORM_ACCESS_KEY=${FORM_KEY}`,
        ...accessLines,
        '',
      ].join('\n'),
    )

    // The README: `npm start` serves http://localhost:8787, "set PORT to change it"; SKIP_BUILD=1
    // serves the build there is.
    repo.copyFromRepository('dist')
    const site = stopOnExit(repo.spawn(`PORT=${ENGINES_PORTS.site} SKIP_BUILD=1 npm start`))
    stops.push(() => site.stop())
    const origin = `http://localhost:${ENGINES_PORTS.site}`
    await site.waitFor(/Serving the production build on workerd at/, 300_000)
    await serving(origin, site, 120_000)
    await productionBuild(origin)

    // Cloudflare Access's part: the operator's token on every request.
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
