// The Worker's own CPU a request, as `npm run bench` measures it (docs/performance.md, "The
// Worker's CPU"): the CPU time of the workerd process that runs the Worker, read from /proc before
// and after a block of requests made one at a time, less what a static file costs in the same
// process in the same round. Linux only (it reads /proc).
import { readdirSync, readFileSync } from 'node:fs'

/** Workers Free stops an invocation past 10 ms of CPU; these leave half of it spare. */
export const CPU_BUDGET_MS = { uncached: 5, cached: 1 } as const

/**
 * Any cookie makes the page cache refuse a request (app/server/html-cache.server.ts), as it does
 * for a visitor who has one: the page is rendered for this request alone.
 */
export const UNCACHED_HEADERS = { Cookie: 'visitor=1' }

/**
 * A browser's navigation asks for HTML. No compression: locally the runtime gzips a body in the
 * measured process, where in production Cloudflare's edge does it outside the Worker's CPU time.
 */
const REQUEST_HEADERS = {
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Encoding': 'identity',
}

function parentOf(pid: number): number | undefined {
  try {
    // The command's name is in parentheses and may hold spaces: the fields after its `)` are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

function commandOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  } catch {
    return []
  }
}

/**
 * `wrangler dev` runs two workerd processes: a proxy on the public port, and the runtime that runs
 * the Worker (and the static files' routing) on a port of its own. The second is the one measured:
 * in production only the Worker's own code is billed. Undefined until it has started.
 */
export function workerRuntimePid(ancestor: number, port: number): number | undefined {
  const descends = (pid: number) => {
    for (let p: number | undefined = pid, hops = 0; p && p > 1 && hops < 20; p = parentOf(p), hops++)
      if (p === ancestor) return true
    return false
  }
  const candidates = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const command = commandOf(pid)
      return /(^|\/)workerd$/.test(command[0] ?? '') && command.includes('serve') && descends(pid)
    })
    .filter((pid) => !commandOf(pid).some((arg) => arg.startsWith('--socket-addr=') && arg.endsWith(`:${port}`)))
  return candidates.length === 1 ? candidates[0] : undefined
}

/**
 * `workerRuntimePid`, waited for: while wrangler starts (or restarts) the runtime, there may be
 * none, or an old one beside the new for a moment.
 */
export async function waitForWorkerRuntime(ancestor: number, port: number, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const pid = workerRuntimePid(ancestor, port)
    if (pid) return pid
    if (Date.now() > deadline) throw new Error(`No single workerd runtime process under pid ${ancestor}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * The process's CPU time so far, in nanoseconds: the sum of its threads' run time (the scheduler's
 * own count, exact to the nanosecond; utime and stime are sampled at the clock tick). workerd's
 * threads (the event loop, V8's helpers) live as long as the process.
 */
export function cpuTimeNs(pid: number): number {
  let total = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total
}

/** CPU ms a request over `requests` requests made one after another, each body read to its end. */
async function block(
  pid: number,
  url: string,
  requests: number,
  headers: Record<string, string>,
  status: number,
): Promise<number> {
  const before = cpuTimeNs(pid)
  for (let i = 0; i < requests; i++) {
    const response = await fetch(url, { headers: { ...REQUEST_HEADERS, ...headers } })
    await response.arrayBuffer()
    if (response.status !== status) throw new Error(`${url} answered ${response.status}, not ${status}`)
  }
  return (cpuTimeNs(pid) - before) / requests / 1e6
}

export interface RouteCpu {
  route: string
  /** Medians over the rounds, net of the static file; then each round's. */
  uncachedMs: number
  cachedMs: number
  uncachedRuns: number[]
  cachedRuns: number[]
  /** The static file's own cost in those rounds (subtracted). */
  staticMs: number[]
}

export interface CpuOptions {
  origin: string
  pid: number
  routes: readonly string[]
  /** A path whose answer is the not-found page (404). */
  notFound: string
  /** A file the static-asset routing serves without the Worker. */
  staticPath: string
  requests: number
  rounds: number
  onRound?: (round: number) => void
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/**
 * Each round, for each route: the static file, the page rendered (`UNCACHED_HEADERS`) and the page
 * as the cache serves it, `requests` each, after a few unmeasured requests of each (the isolate
 * warm, the cache filled). The figures are the medians of the rounds.
 */
export async function measureWorkerCpu(options: CpuOptions): Promise<RouteCpu[]> {
  const { origin, pid, routes, requests, rounds } = options
  const warm = Math.min(10, requests)
  const runs = new Map(routes.map((route) => [route, { u: [] as number[], c: [] as number[], s: [] as number[] }]))
  for (const route of routes) {
    const status = route === options.notFound ? 404 : 200
    await block(pid, `${origin}${options.staticPath}`, warm, {}, 200)
    await block(pid, `${origin}${route}`, warm, UNCACHED_HEADERS, status)
    await block(pid, `${origin}${route}`, warm, {}, status)
  }
  for (let round = 0; round < rounds; round++) {
    for (const route of routes) {
      const status = route === options.notFound ? 404 : 200
      const url = `${origin}${route}`
      const staticMs = await block(pid, `${origin}${options.staticPath}`, requests, {}, 200)
      const uncachedMs = await block(pid, url, requests, UNCACHED_HEADERS, status)
      const cachedMs = await block(pid, url, requests, {}, status)
      const r = runs.get(route)
      r?.s.push(staticMs)
      r?.u.push(uncachedMs - staticMs)
      r?.c.push(cachedMs - staticMs)
    }
    options.onRound?.(round + 1)
  }
  return routes.map((route) => {
    const r = runs.get(route) ?? { u: [], c: [], s: [] }
    return {
      route,
      uncachedMs: median(r.u),
      cachedMs: median(r.c),
      uncachedRuns: r.u,
      cachedRuns: r.c,
      staticMs: r.s,
    }
  })
}
