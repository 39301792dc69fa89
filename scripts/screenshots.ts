// Saves full-page screenshots of every page at 375 and 1280 px wide into screenshots/.
// Serves the existing production build (run `npm run build` first): `npm run screenshots`.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { chromium } from '@playwright/test'
import { CHROMIUM_ARGS, resolveChromium } from '../tests/support/chromium.ts'
import { PAGES } from '../tests/support/routes.ts'

const WIDTHS = [375, 1280] as const
const OUT_DIR = 'screenshots'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

async function waitForServer(origin: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited early with code ${child.exitCode}`)
    try {
      const response = await fetch(origin)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 500))
  }
  throw new Error(`The server did not answer at ${origin} within ${timeoutMs / 1000} s`)
}

function stop(child: ChildProcess) {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
}

function fileName(path: string, width: number): string {
  const name = path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')
  return `${OUT_DIR}/${name}-${width}.png`
}

const port = await freePort()
const origin = `http://localhost:${port}`
const server = spawn('npm', ['start'], {
  env: { ...process.env, PORT: String(port), SKIP_BUILD: '1', WRANGLER_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: true,
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stop(server)
    process.exit(1)
  })
}

try {
  await waitForServer(origin, server)
  mkdirSync(OUT_DIR, { recursive: true })
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: CHROMIUM_ARGS })
  try {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' })
      const page = await context.newPage()
      for (const { path } of PAGES) {
        await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' })
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
        // Lazy images below the fold: bring each into view so the full-page shot includes it.
        for (const image of await page.locator('img[loading="lazy"]').all()) {
          await image.scrollIntoViewIfNeeded()
          await image.evaluate((img: HTMLImageElement) =>
            img.complete
              ? undefined
              : new Promise((done) => {
                  img.addEventListener('load', done, { once: true })
                  img.addEventListener('error', done, { once: true })
                }),
          )
        }
        await page.evaluate(() => window.scrollTo(0, 0))
        const file = fileName(path, width)
        await page.screenshot({ path: file, fullPage: true })
        console.log(`saved ${file}`)
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
} finally {
  stop(server)
}
