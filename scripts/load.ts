// `npm run load`: a bounded load test of the production build on workerd, on loopback.
//   1. For 30 s: 50 concurrent visitors browse the pages while, at the same time, a stream of
//      valid enquiries arrives from many client addresses (CF-Connecting-IP). Expect 0 errors, 0 5xx.
//   2. A burst of 30 enquiries from one address: at most 5 may be forwarded, the rest get 429.
// Every accepted enquiry is stored in the local D1 database first (a fresh one each run), then
// delivered. The form service is a stand-in on 127.0.0.1. Prints the figures; exits non-zero if
// an expectation fails. LOAD_SECONDS shortens phase 1.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon'
import { pages } from '../app/content/pages.ts'
import { startFormService } from '../tests/support/form-service.ts'
import { D1_EXECUTE_ENV, d1ExecuteArgs, d1Rows } from './d1-execute.ts'

const PORT = Number(process.env.LOAD_PORT ?? 8866)
const ORIGIN = `http://localhost:${PORT}`
const SECONDS = Number(process.env.LOAD_SECONDS ?? 30)
const KEY = `load-test-key-${randomBytes(6).toString('hex')}`
// Every page but the legal ones, which nobody browses in bulk.
const PAGES = pages.map((page) => page.path).filter((path) => path !== '/privacy' && path !== '/terms')

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
// Each enquiry from a /48 of its own (the site limits 10 a minute per /48, 5 per /64).
const address = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`
const enquiry = () =>
  new URLSearchParams({
    name: 'Load Test',
    email: `load-${randomBytes(5).toString('hex')}@example.com`,
    company: 'Example Ltd',
    subject: 'general',
    message: 'A message sent by the load test.',
  }).toString()

interface Run {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  timeouts: number
  non2xx: number
  statusCodeStats: Record<string, { count: number }>
}
const count5xx = (r: Run) =>
  Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => Number(code) >= 500)
    .reduce((n, [, s]) => n + s.count, 0)

const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

const service = await startFormService(0, '127.0.0.1', { plan: 'paid' })
rmSync('.wrangler/load/state', { recursive: true, force: true })
mkdirSync('.wrangler/load', { recursive: true })
writeFileSync(
  '.wrangler/load/load.vars',
  `CONTACT_DELIVERY=form-service\nCONTACT_FORM_ENDPOINT=${service.url}\nCONTACT_FORM_ACCESS_KEY=${KEY}\n`,
)
const server = spawn('npm', ['start'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    SKIP_BUILD: '1',
    ENV_FILE: '.wrangler/load/load.vars',
    PERSIST_TO: '.wrangler/load/state',
    WRANGLER_LOG_LEVEL: 'error',
  },
  stdio: ['ignore', 'ignore', 'ignore'],
  detached: true,
})
const stop = () => {
  try {
    if (server.pid) process.kill(-server.pid, 'SIGTERM')
  } catch {}
}
process.on('exit', stop)

/** How many enquiries the server stored, read from its local D1 database. */
function storedCount(): number {
  const result = spawnSync(
    'npm',
    d1ExecuteArgs('SELECT COUNT(*) AS n FROM enquiries', { persistTo: '.wrangler/load/state' }, { json: true }),
    {
      encoding: 'utf8',
      env: { ...process.env, ...D1_EXECUTE_ENV },
    },
  )
  return d1Rows<{ n: number }>(result.stdout ?? '')[0]?.n ?? -1
}

let failed = false
const expectThat = (ok: boolean, what: string) => {
  console.log(`  ${ok ? '✓' : '✗'} ${what}`)
  if (!ok) failed = true
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${ORIGIN}/api/health`)).ok) break
    } catch {}
    if (i > 240) throw new Error('the server did not start')
    await sleep(250)
  }

  const headers = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: ORIGIN,
    'Sec-Fetch-Site': 'same-origin',
  }
  console.log(`\nPhase 1: ${SECONDS} s — 50 visitors browsing ${PAGES.length} pages, and enquiries from many addresses`)
  const [browsing, enquiries] = (await Promise.all([
    autocannon({
      url: ORIGIN,
      connections: 50,
      duration: SECONDS,
      requests: PAGES.map((path) => ({ method: 'GET', path, headers: { Accept: 'text/html' } })),
    }),
    autocannon({
      url: ORIGIN,
      connections: 4,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/api/contact',
          setupRequest: (req: Record<string, unknown>) => ({
            ...req,
            headers: { ...headers, 'CF-Connecting-IP': address() },
            body: enquiry(),
          }),
        },
      ],
    }),
  ])) as [Run, Run]

  for (const [what, r] of [
    ['pages', browsing],
    ['enquiries', enquiries],
  ] as const) {
    console.log(
      `  ${what.padEnd(10)} ${r.requests.total} requests, ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}, 5xx ${count5xx(r)}`,
    )
  }
  // Requests still in flight when the clock stopped complete now; give them a moment.
  await sleep(2_000)
  const emails = service.received.map((r) => (r.json as { email: string }).email)
  const forwardedInPhase1 = emails.length
  console.log(
    `  the form service received ${forwardedInPhase1} enquiries (${enquiries.requests.total} answered in time)`,
  )
  expectThat(browsing.errors + browsing.timeouts === 0 && count5xx(browsing) === 0, 'pages: 0 errors, 0 5xx')
  expectThat(browsing.non2xx === 0, 'pages: every answer 200')
  expectThat(enquiries.errors + enquiries.timeouts === 0 && count5xx(enquiries) === 0, 'enquiries: 0 errors, 0 5xx')
  expectThat(enquiries.non2xx === 0, 'enquiries: every one accepted (200)')
  expectThat(
    forwardedInPhase1 >= enquiries.requests.total && new Set(emails).size === emails.length,
    'every accepted enquiry was forwarded, none twice',
  )
  const stored = storedCount()
  console.log(`  the enquiry database holds ${stored} enquiries`)
  expectThat(stored === forwardedInPhase1, 'every forwarded enquiry is stored, once')

  console.log('\nPhase 2: a burst of 30 enquiries from one address')
  const one = address()
  const before = service.received.length
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      fetch(`${ORIGIN}/api/contact`, {
        method: 'POST',
        headers: { ...headers, 'CF-Connecting-IP': one },
        body: enquiry(),
      }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('Retry-After'), body: await r.text() })),
    ),
  )
  const byStatus: Record<number, number> = {}
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1
  // Delivery finishes just after each answer.
  await sleep(2_000)
  const forwarded = service.received.length - before
  console.log(`  answers: ${JSON.stringify(byStatus)}; forwarded: ${forwarded}`)
  expectThat(forwarded <= 5, 'at most 5 forwarded')
  expectThat((byStatus[429] ?? 0) === 30 - (byStatus[200] ?? 0), 'every other answer is 429')
  expectThat(
    answers.filter((a) => a.status === 429).every((a) => a.retryAfter !== null),
    '429 answers carry Retry-After',
  )
  expectThat(
    !service.received.some((r) => (r.json as { access_key?: string }).access_key !== KEY),
    'the server key on every forward',
  )
} finally {
  stop()
  await service.close()
}
console.log(failed ? '\nLoad test: FAILED' : '\nLoad test: passed')
process.exit(failed ? 1 : 0)
