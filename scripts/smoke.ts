// `npm run smoke -- --url https://<deployed site>` (or `--production`: `url` in app/site.ts):
// the post-deploy smoke test. Passes when the
// home page answers 200 with HTML naming the site, and /api/health answers 200 {"ok": true} (the
// enquiry database is bound). Whether the delivery is configured is for operators only (the inbox);
// a deploy without the form key fails anyway (`[secrets] required`). Retries for up to a minute (a new version can take seconds to reach
// every location). Exit 1 otherwise: the production workflow then rolls back (ci.yml).
import { parseArgs } from 'node:util'
import { site } from '../app/site.ts'

export async function smokeProblems(origin: string): Promise<string[]> {
  const problems: string[] = []
  try {
    const home = await fetch(`${origin}/`, { redirect: 'manual', signal: AbortSignal.timeout(15_000) })
    const html = await home.text()
    if (home.status !== 200) problems.push(`GET / answered ${home.status}`)
    else if (!(home.headers.get('Content-Type') ?? '').includes('text/html')) problems.push('GET / is not HTML')
    else if (!html.includes(site.name)) problems.push(`GET / does not name ${site.name}`)
  } catch (error) {
    problems.push(`GET / failed: ${(error as Error).message}`)
  }
  try {
    const health = await fetch(`${origin}/api/health`, { redirect: 'manual', signal: AbortSignal.timeout(15_000) })
    const body = (await health.json().catch(() => null)) as { ok?: unknown } | null
    if (health.status !== 200 || body?.ok !== true) problems.push(`GET /api/health answered ${health.status}`)
  } catch (error) {
    problems.push(`GET /api/health failed: ${(error as Error).message}`)
  }
  return problems
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      production: { type: 'boolean', default: false },
      attempts: { type: 'string', default: '6' },
    },
  })
  if (values.production) values.url = site.url
  if (!values.url) {
    console.error('smoke: give the deployed site with --url, or --production')
    process.exit(2)
  }
  const origin = new URL(values.url).origin
  let problems: string[] = []
  for (let attempt = 1; attempt <= Number(values.attempts); attempt++) {
    problems = await smokeProblems(origin)
    if (problems.length === 0) break
    if (attempt < Number(values.attempts)) await new Promise((resolve) => setTimeout(resolve, 10_000))
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`smoke: ${p}`)
    process.exit(1)
  }
  console.log(`smoke: ${origin} serves the home page and /api/health is ok`)
}
