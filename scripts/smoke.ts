// `npm run smoke -- --url https://<deployed site>` (or `--production`: `url` in app/site.ts):
// the post-deploy smoke test. Passes when the home page answers 200 with HTML naming the site, and
// /api/health answers 200 {"ok": true} (the enquiries table can be read). Whether the delivery is
// configured is for operators only (the desk); a deploy without the form key fails anyway
// (`[secrets] required`).
//
// `--version <id>`: the version that must answer. A new deployment reaches Cloudflare's locations
// one by one, and during a rollout the version before it and the new one may answer in turns, so
// the test judges only after /api/health named that version in 5 answers in a row, 2 s apart
// (`SMOKE_INTERVAL_SECONDS`; the drills shorten it), failing or not; an answer from another
// version, or naming none, starts the count again. It
// then judges the home page and /api/health once. Without --version the same 5 answers must name
// one version, whichever it is (a Preview deployment's own URL serves exactly that deployment),
// and the test judges it, again and again until it passes.
//   https://developers.cloudflare.com/workers/runtime-apis/bindings/version-metadata/
//   https://developers.cloudflare.com/workers/configuration/versions-and-deployments/gradual-deployments/
//
// Keeps trying for up to `--wait` seconds (default 60, or SMOKE_WAIT_SECONDS; `--attempts <n>`: the
// answers in a row and n − 1 more): a new version can take seconds to reach every location, a new custom domain's
// certificate longer.
// Behind Cloudflare Access (previews, staging), set CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET
// to a service token's id and secret: they are sent as Access's CF-Access-Client-Id /
// CF-Access-Client-Secret headers. Access's login page is an answer, not a version still on its
// way: the test stops there at once and says so (waiting would not change it). Any failure exits 1:
// the production deploy then rolls back (scripts/ci/production.ts).
import { parseArgs } from 'node:util'
import { site } from '../app/site.ts'
import { accessHeaders } from './ci/lib.ts'

/** Answers in a row that must come from the expected version before the test judges it. */
export const CONSECUTIVE = 5

/** How long between two answers: 2 s, or SMOKE_INTERVAL_SECONDS. */
export function smokeIntervalMs(raw = process.env.SMOKE_INTERVAL_SECONDS): number {
  const seconds = Number(raw?.trim() || 2)
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`SMOKE_INTERVAL_SECONDS must be a positive number of seconds: ${raw}`)
  return seconds * 1000
}

/** What Access answers to a request without a valid token: a redirect to its login page. */
export function accessLogin(response: Response): boolean {
  const location = response.headers.get('Location') ?? ''
  return response.status >= 300 && response.status < 400 && /\.cloudflareaccess\.com\//.test(location)
}

const ACCESS_HINT =
  'answered with Cloudflare Access’s login: set CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET (a service token the Access policy allows)'

interface Health {
  problem?: string
  /** The version that answered, when /api/health said. */
  version?: string
}

async function health(origin: string, headers: Record<string, string>): Promise<Health> {
  try {
    const answer = await fetch(`${origin}/api/health`, {
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    })
    const body = (await answer.json().catch(() => null)) as { ok?: unknown; version?: unknown } | null
    const version = typeof body?.version === 'string' ? body.version : undefined
    if (accessLogin(answer)) return { problem: `GET /api/health ${ACCESS_HINT}` }
    if (answer.status !== 200 || body?.ok !== true)
      return { problem: `GET /api/health answered ${answer.status}`, version }
    return { version }
  } catch (error) {
    return { problem: `GET /api/health failed: ${(error as Error).message}` }
  }
}

async function home(origin: string, headers: Record<string, string>): Promise<string | undefined> {
  try {
    const answer = await fetch(`${origin}/`, { headers, redirect: 'manual', signal: AbortSignal.timeout(15_000) })
    const html = await answer.text()
    if (accessLogin(answer)) return `GET / ${ACCESS_HINT}`
    if (answer.status !== 200) return `GET / answered ${answer.status}`
    if (!(answer.headers.get('Content-Type') ?? '').includes('text/html')) return 'GET / is not HTML'
    if (!html.includes(site.name)) return `GET / does not name ${site.name}`
    return undefined
  } catch (error) {
    return `GET / failed: ${(error as Error).message}`
  }
}

/** One judgement of what answers now: the home page and /api/health (which must name `version` when given). */
export async function smokeProblems(
  origin: string,
  headers: Record<string, string> = {},
  version?: string,
): Promise<string[]> {
  const problems: string[] = []
  const page = await home(origin, headers)
  if (page) problems.push(page)
  const after = await health(origin, headers)
  if (after.problem) problems.push(after.problem)
  else if (version && after.version !== version) {
    problems.push(`GET /api/health was answered by version ${after.version ?? '(none named)'}, not ${version}`)
  }
  return problems
}

export interface SmokeResult {
  origin: string
  problems: string[]
  /** The version /api/health named last. */
  answered?: string
}

/**
 * Smoke-tests `url`'s origin. Waits (up to `waitSeconds`) until /api/health has named `version`
 * (without one: the same version) in CONSECUTIVE answers in a row, `intervalMs` apart, then judges.
 * With `version` it judges once; without, until it passes or the time is up. Returns the last problems.
 */
export async function smoke(
  url: string,
  options: {
    waitSeconds?: number
    headers?: Record<string, string>
    version?: string
    intervalMs?: number
    /** At most this many answers from /api/health, whatever the time (`--attempts`). */
    answers?: number
  } = {},
): Promise<SmokeResult> {
  const origin = new URL(url).origin
  const headers = options.headers ?? accessHeaders()
  const waitSeconds = options.waitSeconds ?? smokeWaitSeconds()
  const intervalMs = options.intervalMs ?? smokeIntervalMs()
  const deadline = Date.now() + waitSeconds * 1000
  const wanted = options.version
  let streak = 0
  let last: Health | undefined
  let problems: string[] = []
  for (let count = 1; ; count++) {
    const answer = await health(origin, headers)
    if (answer.problem?.endsWith(ACCESS_HINT)) return { origin, problems: [answer.problem] }
    // A failing answer that names its version is still that version answering (a broken schema
    // fails /api/health with a 503 that names it): it counts, and the judgement says what failed.
    if (answer.version === undefined) streak = 0
    else if (wanted) streak = answer.version === wanted ? streak + 1 : 0
    else streak = streak > 0 && answer.version === last?.version ? streak + 1 : 1
    last = answer
    if (streak >= CONSECUTIVE) {
      problems = await smokeProblems(origin, headers, wanted ?? answer.version)
      if (wanted || problems.length === 0) return { origin, problems, answered: answer.version }
      streak = 0
    }
    // The last pause may end past the deadline: the answer after it still counts.
    if (options.answers ? count >= options.answers : Date.now() >= deadline) {
      const said = answer.problem ?? `GET /api/health was answered by version ${answer.version ?? '(none named)'}`
      return {
        origin,
        answered: answer.version,
        problems:
          problems.length > 0
            ? problems
            : [
                `${wanted ? `version ${wanted}` : 'one version'} did not answer ${CONSECUTIVE} times in a row within ${options.answers ? `${options.answers} answers` : `${waitSeconds} s`}: ${said}`,
              ],
      }
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
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
      version: { type: 'string' },
      // Earlier spelling: how many times the count may start (`--attempts 1`: the answers in a row, no more).
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
  const version = values.version?.trim() || undefined
  // `--attempts n`: the answers in a row it needs, and n − 1 more to start the count again.
  const answers = attempts === undefined ? undefined : CONSECUTIVE - 1 + attempts
  const { origin, problems } = await smoke(values.url, { waitSeconds: smokeWaitSeconds(values.wait), version, answers })
  if (problems.length > 0) {
    for (const p of problems) console.error(`smoke: ${origin}: ${p}`)
    process.exit(1)
  }
  console.log(
    `smoke: ${origin} serves the home page and /api/health is ok${version ? `, answered by version ${version}` : ''}`,
  )
}
