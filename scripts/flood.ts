// `npm run flood`: a bounded flood of the production build on workerd, on loopback, and the
// desk with a full database. Prints figures; exits non-zero if an expectation fails.
//   1. 10,000 posts from 1,000 IPv6 /64s in 10 /48s, 32 at a time, with Turnstile off, and a real
//      visitor's enquiry (from another network) when half have been sent: what was answered, stored,
//      held and refused, what reached the form service, and whether the visitor's was stored and
//      delivered.
//   2. The same with Turnstile on and no tokens; the visitor's post carries a valid token.
//   3. The desk with 50,000 stored enquiries: the list (first page, a deep page, a search, the held
//      view) and the detail page, p50 and p99; then the 50,000-row CSV export: time, size, and
//      workerd's resident memory (sampled every 50 ms) and CPU time while it streams.
// Each run starts its own server (`npm start`, the built Worker, a fresh local D1 database) with
// stand-ins on 127.0.0.1 for the form service, Turnstile's siteverify and Cloudflare Access. The
// client's address is the CF-Connecting-IP header, which the local server passes to the Worker as
// Cloudflare would set it (in production Cloudflare sets it, and a client cannot).
// FLOOD_POSTS, FLOOD_ROWS, FLOOD_PORT (two ports: it and the next), SKIP_BUILD=1.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { DatabaseSync } from 'node:sqlite'
import { startAccessKeys } from '../tests/support/access-keys.ts'
import { startFormService } from '../tests/support/form-service.ts'
import { startSiteverify, TEST_TURNSTILE_SECRET, TEST_TURNSTILE_SITE_KEY } from '../tests/support/turnstile.ts'
import { localDatabaseFiles } from './local-d1.mjs'

const PORT = Number(process.env.FLOOD_PORT ?? 8867)
const POSTS = Number(process.env.FLOOD_POSTS ?? 10_000)
const ROWS = Number(process.env.FLOOD_ROWS ?? 50_000)
const NETWORKS = 10
const CLIENTS = 1_000
const CONCURRENCY = 32
const KEY = `flood-key-${randomBytes(6).toString('hex')}`
const DIR = '.wrangler/flood'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let failed = false
const expectThat = (ok: boolean, what: string) => {
  console.log(`  ${ok ? '✓' : '✗'} ${what}`)
  if (!ok) failed = true
}
const n = (value: number) => value.toLocaleString('en')

if (process.env.SKIP_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const service = await startFormService(0, '127.0.0.1', { plan: 'paid' })
const siteverify = await startSiteverify()
const access = await startAccessKeys()
rmSync(DIR, { recursive: true, force: true })
mkdirSync(DIR, { recursive: true })

interface Server {
  name: string
  origin: string
  process: ChildProcess
  state: string
  stop(): Promise<void>
}

/** `npm start` on the built Worker with these variables (and config), its own database, on `port`. */
async function startServer(name: string, port: number, vars: Record<string, string>, config?: string) {
  const envFile = `${DIR}/${name}.vars`
  writeFileSync(
    envFile,
    `${Object.entries(vars)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n')}\n`,
  )
  const state = `${DIR}/${name}-state`
  // What the server prints (wrangler's warnings and errors, the Worker's warn and error lines).
  const log = openSync(`${DIR}/${name}.log`, 'a')
  const child = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(port),
      SKIP_BUILD: '1',
      ENV_FILE: envFile,
      PERSIST_TO: state,
      WRANGLER_LOG_LEVEL: 'warn',
      ...(config ? { CONFIG: config } : {}),
    },
    stdio: ['ignore', log, log],
    detached: true,
  })
  const origin = `http://localhost:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break
    } catch {}
    if (i > 480) throw new Error(`the ${name} server did not start`)
    await sleep(250)
  }
  const stop = async () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {}
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve()
      else child.once('exit', () => resolve())
    })
  }
  running.add(stop)
  return { name, origin, process: child, state, stop } satisfies Server
}
const running = new Set<() => Promise<void>>()
process.on('exit', () => {
  for (const stop of running) void stop()
})
// Interrupted: stop the servers (they run in process groups of their own) before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const stop of running) void stop()
    process.exit(130)
  })

/** The local D1 database file of a server's state folder (SQLite, as workerd keeps it). */
function databaseFile(state: string): string {
  const [file] = localDatabaseFiles(state)
  if (!file) throw new Error(`no D1 database under ${state}`)
  return file
}

function query<T>(state: string, sql: string, ...params: (string | number)[]): T[] {
  const db = new DatabaseSync(databaseFile(state), { readOnly: true })
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

const form = (email: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    name: 'Flood Test',
    email,
    company: 'Example Ltd',
    subject: 'general',
    message: 'A message sent by the flood benchmark.',
    enquiry_key: `flood-${randomBytes(12).toString('hex')}`,
    ...extra,
  }).toString()

interface Answer {
  status: number
  retryAfter: number
  /** The answer's `error` code, or why there was no answer. */
  error?: string
}

async function send(origin: string, address: string, body: string): Promise<Answer> {
  try {
    const response = await fetch(`${origin}/api/contact`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        Origin: origin,
        'CF-Connecting-IP': address,
      },
      body,
    })
    const answer = (await response.json().catch(() => null)) as { error?: string } | null
    return {
      status: response.status,
      retryAfter: Number(response.headers.get('Retry-After') ?? 0),
      error: answer?.error,
    }
  } catch (error) {
    return { status: 0, retryAfter: 0, error: (error as Error)?.cause ? String((error as Error).cause) : String(error) }
  }
}

/**
 * The flood: POSTS posts from CLIENTS /64s spread over NETWORKS /48s (2001:db8:f100::/48 …), in a
 * shuffled order, CONCURRENCY at a time; the visitor's post goes when half have been sent.
 */
async function flood(server: Server, label: string, visitorToken?: string) {
  const networks = Array.from({ length: NETWORKS }, (_, i) => `2001:db8:${(0xf100 + i).toString(16)}`)
  const clients = Array.from({ length: CLIENTS }, (_, i) => {
    const network = networks[i % NETWORKS] as string
    return `${network}:${Math.floor(i / NETWORKS).toString(16)}::${(i % 7) + 1}`
  })
  const order = Array.from({ length: POSTS }, (_, i) => clients[i % CLIENTS] as string)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[order[i], order[j]] = [order[j] as string, order[i] as string]
  }
  // Warm-up: as many posts at once as the flood sends, each refused as invalid (400, nothing
  // stored). A burst of new connections to a server that has just started makes wrangler's local
  // proxy drop some ("Network connection lost", in wrangler's log, not the Worker's).
  const warmUp = await Promise.all(
    Array.from({ length: CONCURRENCY * 2 }, (_, i) => send(server.origin, `2001:db8:ffff:${i}::1`, 'name=&email=x')),
  )
  const received = service.received.length
  const answers: Answer[] = []
  const visitor = {
    email: `visitor-${randomBytes(5).toString('hex')}@example.com`,
    answer: undefined as Answer | undefined,
  }
  let next = 0
  const started = performance.now()
  const firstWindow = Math.floor(Date.now() / 60_000)
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < order.length) {
        const i = next++
        if (i === Math.floor(POSTS / 2))
          visitor.answer = await send(
            server.origin,
            '2001:db8:cafe:1::1',
            form(visitor.email, visitorToken ? { 'cf-turnstile-response': visitorToken } : {}),
          )
        answers.push(await send(server.origin, order[i] as string, form(`flood-${i}@example.com`)))
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const windows = Math.floor(Date.now() / 60_000) - firstWindow + 1
  // Deliveries finish just after their answers.
  await sleep(3_000)
  const statuses = () =>
    query<{ status: string; n: number }>(
      server.state,
      `SELECT status, COUNT(*) AS n FROM enquiries WHERE email LIKE 'flood-%' GROUP BY status`,
    )
  let rows = statuses()
  const firstAttempts = Object.fromEntries(rows.map((row) => [row.status, row.n]))
  // A first attempt that failed is retried by the Cron Trigger a minute later: run it once, as
  // it runs every minute in production (`/cdn-cgi/handler/scheduled`), when the retries are due.
  if (firstAttempts.pending) {
    const due = query<{ at: string }>(
      server.state,
      `SELECT MAX(next_attempt_at) AS at FROM enquiries WHERE email LIKE 'flood-%' AND status = 'pending'`,
    )[0]?.at
    await sleep(Math.max(0, Date.parse(due ?? '') - Date.now()) + 1_000)
    await (await fetch(`${server.origin}/cdn-cgi/handler/scheduled`)).arrayBuffer()
    await sleep(3_000)
    rows = statuses()
  }
  const byStatus = Object.fromEntries(rows.map((row) => [row.status, row.n]))
  const stored = rows.reduce((sum, row) => sum + row.n, 0)
  const count = (match: (a: Answer) => boolean) => answers.filter(match).length
  const forwarded = service.received
    .slice(received)
    .filter((r) => String((r.json as { email?: string }).email).startsWith('flood-')).length
  // The visitor's enquiry: stored, and delivered once (wait a little for the delivery).
  let visitorRow: { status: string } | undefined
  for (let i = 0; i < 40; i++) {
    visitorRow = query<{ status: string }>(
      server.state,
      'SELECT status FROM enquiries WHERE email = ?1',
      visitor.email,
    )[0]
    if (visitorRow?.status === 'delivered') break
    await sleep(250)
  }
  const visitorForwards = service.received.filter((r) => (r.json as { email?: string }).email === visitor.email).length

  console.log(`\n${label}: ${n(POSTS)} posts from ${n(CLIENTS)} /64s in ${NETWORKS} /48s, ${CONCURRENCY} at a time`)
  const warm = new Map<number, number>()
  for (const a of warmUp) warm.set(a.status, (warm.get(a.status) ?? 0) + 1)
  console.log(`  warm-up      ${[...warm].map(([status, k]) => `${status || 'no answer'} × ${k}`).join(', ')}`)
  console.log(
    `  sent         ${n(answers.length)} in ${seconds.toFixed(1)} s (${n(Math.round(answers.length / seconds))}/s)`,
  )
  console.log(
    `  answered     200: ${n(count((a) => a.status === 200))}, 429: ${n(count((a) => a.status === 429))} (rate limit ${n(count((a) => a.status === 429 && a.retryAfter <= 60))}, held cap ${n(count((a) => a.status === 429 && a.retryAfter > 60))}), other: ${n(count((a) => a.status !== 200 && a.status !== 429))}`,
  )
  console.log(
    `  stored       ${n(stored)} (held ${n(byStatus.held ?? 0)}, delivered ${n(byStatus.delivered ?? 0)}, pending ${n(byStatus.pending ?? 0)}, failed ${n(byStatus.failed ?? 0)})`,
  )
  console.log(`  refused      ${n(count((a) => a.status !== 200))} (not stored)`)
  const others = new Map<string, number>()
  for (const a of answers.filter((x) => x.status !== 200 && x.status !== 429)) {
    const what = `${a.status || 'no answer'} ${a.error ?? ''}`.trim()
    others.set(what, (others.get(what) ?? 0) + 1)
  }
  if (others.size) console.log(`  other answers: ${[...others].map(([what, k]) => `${what} × ${k}`).join(', ')}`)
  const printed = readFileSync(`${DIR}/${server.name}.log`, 'utf8')
  const uncaught = printed.match(/Uncaught|never generate a response|hung|exceeded/gi)?.length ?? 0
  console.log(`  server log    ${uncaught} uncaught error(s) (${DIR}/${server.name}.log)`)
  console.log(
    `  load average  ${loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')} (${cpus().length} cores)`,
  )
  if (firstAttempts.pending)
    console.log(
      `  first attempts: ${n(firstAttempts.delivered ?? 0)} delivered, ${n(firstAttempts.pending)} failed (pending, retried by one scheduled run)`,
    )
  console.log(`  form service received ${n(forwarded)} of the flood`)
  console.log(
    `  the visitor's enquiry: answered ${visitor.answer?.status}, stored ${visitorRow ? `(${visitorRow.status})` : 'no'}, reached the form service ${visitorForwards} time(s)`,
  )
  return {
    answers,
    stored,
    byStatus,
    forwarded,
    windows,
    visitor: { answer: visitor.answer, row: visitorRow, visitorForwards },
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

async function timed(url: string, headers: Record<string, string>, times: number, expectText?: string) {
  const ms: number[] = []
  let ok = true
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers })
    const text = await response.text()
    ms.push(performance.now() - started)
    if (response.status !== 200 || (expectText && !text.includes(expectText))) ok = false
  }
  ms.sort((a, b) => a - b)
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), ok }
}

/** workerd's resident memory (kB) and CPU time (s), summed over the server's workerd processes. */
function workerdUsage(server: Server): { rssKb: number; cpuSeconds: number } {
  const ps = spawnSync('ps', ['-o', 'pid=,comm=', '-g', String(server.process.pid)], { encoding: 'utf8' })
  let rssKb = 0
  let ticks = 0
  for (const line of (ps.stdout ?? '').split('\n')) {
    const [pid, comm] = line.trim().split(/\s+/)
    if (!pid || !comm?.startsWith('workerd')) continue
    try {
      rssKb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0)
    } catch {}
  }
  return { rssKb, cpuSeconds: ticks / 100 }
}

/** Fills a stopped server's database up to ROWS enquiries, as a flood and a few years of real ones would. */
function fillDatabase(state: string): { total: number; held: number } {
  const db = new DatabaseSync(databaseFile(state))
  const existing = (db.prepare('SELECT COUNT(*) AS n FROM enquiries').get() as { n: number }).n
  const insert = db.prepare(
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, attempts, delivered_at, delivered_by, held_reason)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
  )
  const subjects = ['devops', 'website', 'automation', 'voice-ai', 'general']
  const words = 'we need help with our build pipeline and a new website for the export business please call'.split(' ')
  db.exec('BEGIN')
  const start = Date.now() - 700 * 86_400_000
  for (let i = existing; i < ROWS; i++) {
    const at = new Date(start + Math.floor((i / ROWS) * 700 * 86_400_000) + (i % 1000)).toISOString()
    const status = i % 33 === 0 ? 'held' : i % 20 === 0 ? 'handled' : i % 97 === 0 ? 'failed' : 'delivered'
    const length = 200 + ((i * 7919) % 2800)
    let message = ''
    while (message.length < length) message += `${words[(message.length + i) % words.length]} `
    insert.run(
      `${at.slice(0, 10).replaceAll('-', '')}-fill${i}`,
      `fill-${i}`,
      at,
      `Person ${i}`,
      `person${i}@example.com`,
      i % 3 ? `Company ${i % 500}` : '',
      subjects[i % subjects.length] as string,
      message,
      status,
      status === 'held' ? 0 : 1,
      status === 'delivered' ? at : null,
      status === 'delivered' ? 'form-service' : null,
      status === 'held' ? 'turnstile_missing' : null,
    )
  }
  db.exec('COMMIT')
  const total = (db.prepare('SELECT COUNT(*) AS n FROM enquiries').get() as { n: number }).n
  const held = (db.prepare(`SELECT COUNT(*) AS n FROM enquiries WHERE status = 'held'`).get() as { n: number }).n
  db.close()
  return { total, held }
}

try {
  console.log(
    `Flood benchmark, ${new Date().toISOString().slice(0, 10)}: ${POSTS} posts a run; the desk with ${n(ROWS)} rows`,
  )
  const base = { CONTACT_DELIVERY: 'form-service', CONTACT_FORM_ENDPOINT: service.url, CONTACT_FORM_ACCESS_KEY: KEY }

  // 1. Turnstile off.
  const off = await startServer('turnstile-off', PORT, access.vars(base))
  const a = await flood(off, 'Turnstile off')
  expectThat(
    a.stored <= a.windows * NETWORKS * 10,
    `at most 10 a minute from each /48 stored (${a.windows} one-minute window(s): at most ${a.windows * NETWORKS * 10})`,
  )
  expectThat(
    a.answers.every((x) => x.status === 200 || x.status === 429),
    'every post answered 200 or 429: no error, no 5xx',
  )
  expectThat(
    a.stored === a.answers.filter((x) => x.status === 200).length,
    'every post answered 200 is stored, none more',
  )
  expectThat(a.forwarded === a.stored, 'every stored post reached the form service once')
  expectThat(
    a.visitor.answer?.status === 200 && a.visitor.row?.status === 'delivered' && a.visitor.visitorForwards === 1,
    "the visitor's enquiry was answered 200, stored and delivered once",
  )

  // 2. Turnstile on, no tokens.
  const built = JSON.parse(readFileSync('dist/server/wrangler.json', 'utf8'))
  built.secrets = { required: [...(built.secrets?.required ?? []), 'TURNSTILE_SECRET_KEY'] }
  const config = `dist/server/wrangler.flood-turnstile.json`
  writeFileSync(config, JSON.stringify(built))
  const on = await startServer(
    'turnstile-on',
    PORT + 1,
    access.vars({
      ...base,
      TURNSTILE_SITE_KEY: TEST_TURNSTILE_SITE_KEY,
      TURNSTILE_SECRET_KEY: TEST_TURNSTILE_SECRET,
      TURNSTILE_VERIFY_URL: siteverify.url,
    }),
    config,
  )
  const b = await flood(on, 'Turnstile on, no tokens', `pass-${randomBytes(8).toString('hex')}`)
  await on.stop()
  rmSync(config, { force: true })
  expectThat(
    b.answers.every((x) => x.status === 200 || x.status === 429),
    'every post answered 200 or 429: no error, no 5xx',
  )
  expectThat(
    (b.byStatus.held ?? 0) <= Math.min(20 * NETWORKS, 50) && b.stored === (b.byStatus.held ?? 0),
    'at most 20 held a network and 50 in all, nothing else stored',
  )
  expectThat(b.forwarded === 0, 'nothing of the flood reached the form service')
  expectThat(
    b.visitor.answer?.status === 200 && b.visitor.row?.status === 'delivered' && b.visitor.visitorForwards === 1,
    "the visitor's enquiry (valid token) was answered 200, stored and delivered once",
  )

  // 3. The desk with ROWS enquiries.
  await off.stop()
  const filled = fillDatabase(off.state)
  const desk = await startServer('turnstile-off', PORT, access.vars(base))
  // As an address the operator typed: the desk opens an enquiry or exports only then, or from its own pages.
  const headers = { 'Cf-Access-Jwt-Assertion': await access.sign({ expiresIn: 3600 }), 'Sec-Fetch-Site': 'none' }
  const some = query<{ id: string }>(desk.state, `SELECT id FROM enquiries ORDER BY random() LIMIT 200`)
  console.log(`\nThe desk with ${n(filled.total)} enquiries (${n(filled.held)} held), 200 requests each, one at a time`)
  const last = Math.ceil(filled.total / 25)
  const pages: [string, string, string][] = [
    ['list, first page', '/admin', `of ${filled.total}`],
    [`list, page ${n(last)} (last)`, `/admin?page=${last}`, `href="/admin?page=${last - 1}"`],
    ['list, search', '/admin?q=Person%2012345', 'Person 12345'],
    ['list, held view', '/admin?status=held', 'Erase held enquiries'],
  ]
  await timed(`${desk.origin}/admin`, headers, 5)
  for (const [label, path, expectText] of pages) {
    const t = await timed(`${desk.origin}${path}`, headers, 200, expectText)
    console.log(`  ${label.padEnd(18)} p50 ${t.p50.toFixed(0)} ms, p99 ${t.p99.toFixed(0)} ms`)
    expectThat(t.ok, `${label}: every answer 200 with the page's content`)
  }
  const detail: number[] = []
  for (const { id } of some) {
    const started = performance.now()
    const response = await fetch(`${desk.origin}/admin/enquiries/${encodeURIComponent(id)}`, { headers })
    await response.text()
    detail.push(performance.now() - started)
    if (response.status !== 200) failed = true
  }
  detail.sort((x, y) => x - y)
  console.log(
    `  ${'detail page'.padEnd(18)} p50 ${quantile(detail, 0.5).toFixed(0)} ms, p99 ${quantile(detail, 0.99).toFixed(0)} ms`,
  )

  // The export, every row, streamed.
  const before = workerdUsage(desk)
  let peakKb = before.rssKb
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, workerdUsage(desk).rssKb)
  }, 50)
  const started = performance.now()
  const response = await fetch(`${desk.origin}/admin/export.csv`, { headers })
  let bytes = 0
  let lines = 0
  let firstByteMs = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!firstByteMs) firstByteMs = performance.now() - started
    bytes += chunk.length
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++
  }
  const exportMs = performance.now() - started
  clearInterval(sampler)
  const after = workerdUsage(desk)
  const exported = query<{ n: number }>(desk.state, 'SELECT COUNT(*) AS n FROM enquiries')[0]?.n ?? 0
  console.log(
    `\nCSV export of every enquiry: ${n(exported)} rows, ${(bytes / 1e6).toFixed(1)} MB in ${(exportMs / 1000).toFixed(1)} s (first byte ${firstByteMs.toFixed(0)} ms)`,
  )
  console.log(
    `  workerd resident memory: ${(before.rssKb / 1024).toFixed(0)} MB before, ${(peakKb / 1024).toFixed(0)} MB at most while streaming (+${((peakKb - before.rssKb) / 1024).toFixed(0)} MB); workerd CPU ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s`,
  )
  expectThat(response.status === 200, 'the export answered 200')
  // The benchmark's messages are one line each: a line end per row, and one for the header.
  expectThat(lines === exported + 1, `the file holds every row (${n(lines)} lines: ${n(exported)} rows and a header)`)
  expectThat(peakKb - before.rssKb < 128 * 1024, "workerd's memory grew by less than a Worker's 128 MB while streaming")
  await desk.stop()
} finally {
  for (const stop of running) await stop()
  await service.close()
  await siteverify.close()
  await access.close()
}
console.log(failed ? '\nFlood benchmark: FAILED' : '\nFlood benchmark: passed')
process.exit(failed ? 1 : 0)
