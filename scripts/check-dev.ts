// `npm run check:dev`: starts `npm run dev` (Vite, with the Worker running in workerd) on a spare
// port, checks that it serves pages, server routes and the 404 from the Worker and that its HMR
// channel accepts a browser, then stops it and waits until every process it started (workerd
// among them) has exited, so the end-to-end servers that start next find their ports free.
//   DEV_CHECK_PORT  port to use (default 5199)
import { type ChildProcess, spawn } from 'node:child_process'

const port = Number(process.env.DEV_CHECK_PORT || 5199)
const origin = `http://localhost:${port}`
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

let output = ''
const server: ChildProcess = spawn(npm, ['run', 'dev', '--silent', '--', '--port', String(port), '--strictPort'], {
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, BROWSER: 'none', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
})
server.stdout?.on('data', (chunk: Buffer) => {
  output += chunk.toString()
})
server.stderr?.on('data', (chunk: Buffer) => {
  output += chunk.toString()
})
const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitUntilServing(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm run dev exited with code ${server.exitCode}`)
    try {
      const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(10_000) })
      if (response.ok) return
    } catch {}
    await sleep(500)
  }
  throw new Error(`npm run dev did not serve ${origin} within ${timeoutMs / 1000} s`)
}

/** Each path, the status it must answer and a text its body must hold. */
const CHECKS: [string, number, string][] = [
  ['/', 200, '<h1'],
  ['/contact', 200, 'Send us a message'],
  ['/services/devops', 200, 'Architect Your Solution'],
  ['/api/health', 200, '"ok":true'],
  // The desk fails closed in development too: no Access configuration, no entry.
  ['/admin', 403, 'Not allowed'],
  ['/sitemap.xml', 200, '<urlset'],
  ['/llms.txt', 200, '## Services'],
  ['/services/devops.md', 200, '# Enterprise DevOps & Cloud Automation'],
  ['/no-such-page', 404, 'Page not found'],
]

/** Vite's HMR channel greets a browser that connects with `{"type":"connected"}`. */
function hmrGreeting(): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://localhost:${port}/`, 'vite-hmr')
    const timer = setTimeout(() => {
      socket.close()
      reject(new Error('the HMR channel did not answer within 10 s'))
    }, 10_000)
    socket.addEventListener('message', (event) => {
      clearTimeout(timer)
      socket.close()
      resolve(String(event.data))
    })
    socket.addEventListener('error', () => {
      clearTimeout(timer)
      reject(new Error('the HMR channel refused the connection'))
    })
  })
}

/** True while any process of the dev server's group (npm, Vite, workerd) is still running. */
function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

async function stop() {
  const pgid = server.pid
  if (!pgid) return
  if (server.exitCode === null) {
    try {
      process.kill(-pgid, 'SIGTERM')
    } catch {}
  }
  const deadline = Date.now() + 15_000
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(200)
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {}
    while (groupAlive(pgid)) await sleep(200)
  }
  await exited
}

let failures = 0
try {
  const started = Date.now()
  await waitUntilServing(120_000)
  console.log(`npm run dev serves ${origin} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`)
  for (const [path, status, text] of CHECKS) {
    const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(60_000) })
    const body = await response.text()
    const ok = response.status === status && body.includes(text)
    if (!ok) failures++
    console.log(
      `  ${ok ? 'ok  ' : 'FAIL'} ${path} → ${response.status} (expected ${status} with ${JSON.stringify(text)})`,
    )
  }
  const greeting = await hmrGreeting()
  const connected = greeting.includes('"connected"')
  if (!connected) failures++
  console.log(`  ${connected ? 'ok  ' : 'FAIL'} HMR channel → ${greeting.slice(0, 80)}`)
} catch (error) {
  failures++
  console.error(error instanceof Error ? error.message : error)
} finally {
  await stop()
}

if (failures > 0) {
  console.error(`\nnpm run dev check failed; the dev server printed:\n${output.slice(-4000)}`)
  process.exit(1)
}
console.log('npm run dev check passed')
