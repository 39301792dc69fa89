// Runs groups of npm scripts at the same time; the scripts of one group run one after another.
//
//   node scripts/run-together.mjs test:e2e test:drills,test:engines
//
// `npm test` uses it for its longest parts, which mostly wait (on workerd, wrangler and the
// browsers) rather than compute: the Playwright suite beside the drills, then the engine smoke
// suite. The first group's output is shown as it comes; each other group's is kept and shown,
// whole and labelled, when it ends, so the two never interleave. Exits 1 when any script failed
// (after every group has finished, so each failure is reported), 0 otherwise. Ctrl-C stops every
// group.
import { spawn } from 'node:child_process'

const groups = process.argv.slice(2).map((arg) => arg.split(',').filter(Boolean))
if (groups.length === 0 || groups.some((g) => g.length === 0)) {
  console.error('usage: node scripts/run-together.mjs <script>[,<script>…] <script>[,<script>…] …')
  process.exit(2)
}

const children = new Set()
const stopAll = () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
  }
}
process.on('SIGINT', () => {
  stopAll()
  process.exit(130)
})
process.on('SIGTERM', () => {
  stopAll()
  process.exit(143)
})

/** Runs `npm run <script>`; streams its output, or keeps it in `kept`. Resolves to its exit code. */
function run(script, kept) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], {
      stdio: kept ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      detached: true,
    })
    children.add(child)
    if (kept) {
      child.stdout.on('data', (chunk) => kept.push(chunk))
      child.stderr.on('data', (chunk) => kept.push(chunk))
    }
    child.on('error', (error) => {
      kept?.push(Buffer.from(`${error.message}\n`))
      resolve(1)
    })
    child.on('close', (code, signal) => {
      children.delete(child)
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}

const started = Date.now()
const failed = []
await Promise.all(
  groups.map(async (group, index) => {
    const kept = index === 0 ? undefined : []
    for (const script of group) {
      const code = await run(script, kept)
      if (code !== 0) {
        failed.push(`npm run ${script} (exit ${code})`)
        break
      }
    }
    if (kept) {
      const seconds = Math.round((Date.now() - started) / 1000)
      process.stdout.write(
        `\n──── ${group.map((s) => `npm run ${s}`).join(', then ')} (ran alongside; ${seconds} s) ────\n`,
      )
      process.stdout.write(Buffer.concat(kept))
      process.stdout.write(`──── end of ${group.join(', ')} ────\n\n`)
    }
  }),
)
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join('; ')}`)
  process.exit(1)
}
