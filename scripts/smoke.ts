// `npm run smoke -- --url https://<deployed site>` (or `--production`: `url` in app/site.ts):
// the post-deploy smoke test. Passes when the home page answers 200 with HTML naming the site, and
// /api/health answers 200 {"ok": true} (the enquiry database is bound). Whether the delivery is
// configured is for operators only (the inbox); a deploy without the form key fails anyway
// (`[secrets] required`).
//
// Keeps trying for up to `--wait` seconds (default 60, or SMOKE_WAIT_SECONDS; `--attempts <n>`: n
// tries), 5 s apart: a new version can take seconds to reach every location, a new custom
// domain's certificate longer.
// Behind Cloudflare Access (previews, staging, workers.dev), set CF_ACCESS_CLIENT_ID and
// CF_ACCESS_CLIENT_SECRET to a service token's id and secret: they are sent as Access's
// CF-Access-Client-Id / CF-Access-Client-Secret headers. Exit 1 otherwise: the production deploy
// then rolls back (scripts/ci/production.ts).
import { parseArgs } from 'node:util'
import { site } from '../app/site.ts'
import { accessHeaders } from './ci/lib.ts'

/** What Access answers to a request without a valid token: a redirect to its login page. */
function accessLogin(response: Response): boolean {
  const location = response.headers.get('Location') ?? ''
  return response.status >= 300 && response.status < 400 && /\.cloudflareaccess\.com\//.test(location)
}

const ACCESS_HINT =
  'answered with Cloudflare Access’s login: set CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET (a service token the Access policy allows)'

export async function smokeProblems(origin: string, headers: Record<string, string> = {}): Promise<string[]> {
  const problems: string[] = []
  try {
    const home = await fetch(`${origin}/`, { headers, redirect: 'manual', signal: AbortSignal.timeout(15_000) })
    const html = await home.text()
    if (accessLogin(home)) problems.push(`GET / ${ACCESS_HINT}`)
    else if (home.status !== 200) problems.push(`GET / answered ${home.status}`)
    else if (!(home.headers.get('Content-Type') ?? '').includes('text/html')) problems.push('GET / is not HTML')
    else if (!html.includes(site.name)) problems.push(`GET / does not name ${site.name}`)
  } catch (error) {
    problems.push(`GET / failed: ${(error as Error).message}`)
  }
  try {
    const health = await fetch(`${origin}/api/health`, {
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    })
    const body = (await health.json().catch(() => null)) as { ok?: unknown } | null
    if (accessLogin(health)) problems.push(`GET /api/health ${ACCESS_HINT}`)
    else if (health.status !== 200 || body?.ok !== true) problems.push(`GET /api/health answered ${health.status}`)
  } catch (error) {
    problems.push(`GET /api/health failed: ${(error as Error).message}`)
  }
  return problems
}

/** Smoke-tests `url`'s origin until it passes or `waitSeconds` have gone by; returns the last problems. */
export async function smoke(url: string, options: { waitSeconds?: number; headers?: Record<string, string> } = {}) {
  const origin = new URL(url).origin
  const waitSeconds = options.waitSeconds ?? smokeWaitSeconds()
  const deadline = Date.now() + waitSeconds * 1000
  for (;;) {
    const problems = await smokeProblems(origin, options.headers ?? accessHeaders())
    if (problems.length === 0 || Date.now() + 5_000 > deadline) return { origin, problems }
    await new Promise((resolve) => setTimeout(resolve, 5_000))
  }
}

export function smokeWaitSeconds(raw = process.env.SMOKE_WAIT_SECONDS): number {
  const seconds = Number(raw?.trim() || 60)
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`SMOKE_WAIT_SECONDS must be a number of seconds: ${raw}`)
  return seconds
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      production: { type: 'boolean', default: false },
      wait: { type: 'string' },
      // Earlier spelling: how many tries, 5 s apart (`--attempts 1`: one try, no waiting).
      attempts: { type: 'string' },
    },
  })
  if (values.production) values.url = site.url
  if (!values.url) {
    console.error('smoke: give the deployed site with --url, or --production')
    process.exit(2)
  }
  const attempts = values.attempts === undefined ? undefined : Number(values.attempts)
  if (attempts !== undefined && !(Number.isInteger(attempts) && attempts >= 1)) {
    console.error(`smoke: --attempts is a whole number from 1: ${values.attempts}`)
    process.exit(2)
  }
  const waitSeconds = attempts === undefined ? smokeWaitSeconds(values.wait) : (attempts - 1) * 5
  const { origin, problems } = await smoke(values.url, { waitSeconds })
  if (problems.length > 0) {
    for (const p of problems) console.error(`smoke: ${origin}: ${p}`)
    process.exit(1)
  }
  console.log(`smoke: ${origin} serves the home page and /api/health is ok`)
}
