// `npm run bench`: builds, serves the production Worker locally on workerd, and measures
//   - every route (the ten pages, /privacy, /terms and the 404 page) with Lighthouse 13, mobile
//     preset with its default (simulated) throttling, median of BENCH_RUNS runs (default 3):
//     Performance, Accessibility, Best Practices, SEO; LCP, TBT, CLS; first-load bytes of
//     JavaScript, CSS, fonts and images, each as its gzip -9 size computed here from the body
//     (the same measure whatever encoding a server chooses; fonts and images as they are);
//   - server throughput with autocannon (50 connections, 10 s each): a server-rendered page and
//     a static asset in the same run, requests/s and p50/p99 latency, and their ratio.
// Prints a table with each target and writes reports/bench-<date>.json (git-ignored).
// Lighthouse refuses to score a document answered with 404, so the 404 page is scored through a
// loopback proxy that passes every byte and header through and changes only that document's
// status to 200; its row is marked as such.
//   BENCH_RUNS=1 npm run bench      quicker, noisier
//   BENCH_ROUTES=/,/products        a subset
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import { cpus, tmpdir, totalmem } from 'node:os'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import lighthouse from 'lighthouse'
import { SITEMAP_PATHS } from '../app/lib/sitemap.ts'
import { CHROMIUM_ARGS, resolveChromium } from '../tests/support/chromium.ts'

const PORT = Number(process.env.BENCH_PORT ?? 8877)
const ORIGIN = `http://localhost:${PORT}`
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const CHROMIUM = resolveChromium()
const NOT_FOUND_ROUTE = '/this-page-does-not-exist'
const ALL_ROUTES = [...SITEMAP_PATHS, NOT_FOUND_ROUTE]
const PROXY_PORT = PORT + 2
const PROXY_ORIGIN = `http://127.0.0.1:${PROXY_PORT}`
const ROUTES = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(',') : ALL_ROUTES

const TARGETS = {
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: 1000,
  tbtMs: 50,
  cls: 0.01,
  jsGzipKB: 125,
  throughputRatio: 0.8,
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url)
      if (res.status < 500) return
    } catch {}
    await sleep(250)
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

function startServer() {
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(PORT), SKIP_BUILD: '1', WRANGLER_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'ignore'],
    detached: true,
  })
  return () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
  }
}

function startChromium() {
  const profile = mkdtempSync(`${tmpdir()}/bench-chromium-`)
  const debugPort = PORT + 1
  const child = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, `--remote-debugging-port=${debugPort}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore', detached: true },
  )
  return {
    port: debugPort,
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

// Passes requests to the Worker unchanged; only the 404 page's own document comes back as 200.
function startStatusProxy() {
  const server = createServer((req, res) => {
    const upstream = httpRequest(
      {
        host: 'localhost',
        port: PORT,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: `localhost:${PORT}` },
      },
      (up) => {
        const status = req.url === NOT_FOUND_ROUTE && up.statusCode === 404 ? 200 : up.statusCode
        res.writeHead(status, up.headers)
        up.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  server.listen(PROXY_PORT, '127.0.0.1')
  return () => server.close()
}

const gzipCache = new Map()
async function gzipSize(url) {
  if (!gzipCache.has(url)) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer())
    // Fonts and images are already compressed; servers send them as they are.
    const compressible = /\.(js|mjs|css|svg|html|json|txt|xml)(\?|$)/.test(new URL(url).pathname) || !/\.\w+$/.test(url)
    gzipCache.set(url, compressible ? gzipSync(body, { level: 9 }).length : body.length)
  }
  return gzipCache.get(url)
}

async function lighthouseRun(url, port, origin) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  })
  const lhr = result.lhr
  if (lhr.runtimeError) return { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` }
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const bytes = { Script: 0, Stylesheet: 0, Font: 0, Image: 0 }
  for (const item of lhr.audits['network-requests']?.details?.items ?? []) {
    if (!item.url.startsWith(origin) || !(item.resourceType in bytes)) continue
    bytes[item.resourceType] += await gzipSize(item.url)
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    jsGzipKB: bytes.Script / 1024,
    cssGzipKB: bytes.Stylesheet / 1024,
    fontKB: bytes.Font / 1024,
    imageKB: bytes.Image / 1024,
    failedAudits: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id),
  }
}

async function load(url) {
  const r = await autocannon({ url, connections: 50, duration: 10 })
  return {
    url,
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  }
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—')
const mark = (ok) => (ok ? '✓' : '✗')

// ---------------------------------------------------------------------------------------------
const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

const stopServer = startServer()
const chromium = startChromium()
const stopProxy = startStatusProxy()
process.on('exit', () => {
  stopServer()
  stopProxy()
  chromium.stop()
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

try {
  await waitFor(`${ORIGIN}/`)
  await waitFor(`http://127.0.0.1:${chromium.port}/json/version`)

  const pages = []
  for (const route of ROUTES) {
    const viaProxy = route === NOT_FOUND_ROUTE
    const origin = viaProxy ? PROXY_ORIGIN : ORIGIN
    const runs = []
    let error
    for (let i = 0, retries = 0; i < RUNS && !error; i++) {
      const run = await lighthouseRun(`${origin}${route}`, chromium.port, origin)
      // A broken trace (NO_NAVSTART, NO_FCP…) is Lighthouse's own hiccup: run again, up to twice.
      if (run.error && !run.error.startsWith('ERRORED_DOCUMENT_REQUEST') && retries++ < 2) i--
      else if (run.error) error = run.error
      else runs.push(run)
    }
    if (error) {
      pages.push({ route, error })
      process.stderr.write(`${route}: not scored — ${error}\n`)
      continue
    }
    const m = (key) => median(runs.map((r) => r[key]))
    const row = {
      route,
      ...(viaProxy && { note: 'answered 404; scored with its status shown to Lighthouse as 200' }),
      performance: m('performance'),
      accessibility: m('accessibility'),
      bestPractices: m('bestPractices'),
      seo: m('seo'),
      lcpMs: m('lcpMs'),
      tbtMs: m('tbtMs'),
      cls: m('cls'),
      jsGzipKB: m('jsGzipKB'),
      cssGzipKB: m('cssGzipKB'),
      fontKB: m('fontKB'),
      imageKB: m('imageKB'),
      failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))],
    }
    pages.push(row)
    process.stderr.write(
      `${route}: perf ${row.performance} a11y ${row.accessibility} bp ${row.bestPractices} seo ${row.seo}\n`,
    )
  }

  // Throughput: a server-rendered page, then a static asset, same server, same settings.
  const html = await (await fetch(`${ORIGIN}/`)).text()
  const assetPath = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? '/favicon.svg'
  const page = await load(`${ORIGIN}/services`)
  const asset = await load(`${ORIGIN}${assetPath}`)
  // The same page with the page cache bypassed (a query string): what each full render costs.
  const uncached = await load(`${ORIGIN}/services?render=every-time`)
  const ratio = page.requestsPerSec / asset.requestsPerSec

  // ---- print ----
  const head = [
    'route',
    'perf',
    'a11y',
    'bp',
    'seo',
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS KB gz',
    'CSS KB gz',
    'font KB',
    'img KB',
  ]
  const scored = pages.filter((p) => !p.error)
  const lines = scored.map((p) => [
    p.note ? `${p.route} (404 †)` : p.route,
    `${p.performance} ${mark(p.performance >= TARGETS.performance)}`,
    `${p.accessibility} ${mark(p.accessibility >= TARGETS.accessibility)}`,
    `${p.bestPractices} ${mark(p.bestPractices >= TARGETS.bestPractices)}`,
    `${p.seo} ${mark(p.seo >= TARGETS.seo)}`,
    `${fmt(p.lcpMs)} ${mark(p.lcpMs <= TARGETS.lcpMs)}`,
    `${fmt(p.tbtMs)} ${mark(p.tbtMs <= TARGETS.tbtMs)}`,
    `${fmt(p.cls, 3)} ${mark(p.cls <= TARGETS.cls)}`,
    `${fmt(p.jsGzipKB, 1)} ${mark(p.jsGzipKB <= TARGETS.jsGzipKB)}`,
    fmt(p.cssGzipKB, 1),
    fmt(p.fontKB, 1),
    fmt(p.imageKB, 1),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)))
  const row = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  const date = new Date().toISOString()
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`
  console.log(`\nLighthouse 13 mobile (simulated throttling), median of ${RUNS} run(s) — ${date}\n${machine}\n`)
  console.log(
    `Targets: scores ${TARGETS.performance}; LCP ≤ ${TARGETS.lcpMs} ms; TBT ≤ ${TARGETS.tbtMs} ms; CLS ≤ ${TARGETS.cls}; JS ≤ ${TARGETS.jsGzipKB} KB gzip\n`,
  )
  console.log(row(head))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const l of lines) console.log(row(l))
  for (const p of pages.filter((p) => p.error)) console.log(`| ${p.route} | not scored by Lighthouse: ${p.error}`)
  const noted = scored.find((p) => p.note)
  if (noted) console.log(`† ${noted.note} (Lighthouse refuses 404 documents)`)
  const failed = scored.filter((p) => p.failedAudits.length)
  if (failed.length) {
    console.log('\nFailing Lighthouse audits:')
    for (const p of failed) console.log(`  ${p.route}: ${p.failedAudits.join(', ')}`)
  }
  console.log('\nThroughput on workerd (autocannon, 50 connections, 10 s each):')
  for (const r of [page, uncached, asset]) {
    console.log(
      `  ${r.url.replace(ORIGIN, '').padEnd(36)} ${fmt(r.requestsPerSec)} req/s  p50 ${fmt(r.p50Ms)} ms  p99 ${fmt(r.p99Ms)} ms  errors ${r.errors}  non-2xx ${r.non2xx}`,
    )
  }
  console.log(
    `  page / asset throughput: ${fmt(ratio, 2)} (target ≥ ${TARGETS.throughputRatio}) ${mark(ratio >= TARGETS.throughputRatio)}; rendering every time: ${fmt(uncached.requestsPerSec / asset.requestsPerSec, 2)}`,
  )

  mkdirSync('reports', { recursive: true })
  const file = `reports/bench-${date.replace(/[:.]/g, '-')}.json`
  writeFileSync(
    file,
    JSON.stringify(
      { date, machine, runs: RUNS, targets: TARGETS, pages, throughput: { page, uncached, asset, ratio } },
      null,
      2,
    ),
  )
  console.log(`\nWritten to ${file}`)
} finally {
  stopServer()
  stopProxy()
  chromium.stop()
}
