// `npm test`: every check, in order, stopping at the first that fails, then a table of how long
// each took (the figures docs/testing.md, "How long it takes", is kept from).
//
// Each step is an npm script and can be run on its own (`npm run test:e2e`, …). The steps run one
// after another, except two groups, whose steps beside the main one run beside it in chains (each
// chain in order, the chains side by side), their output printed when they end, so no two steps'
// lines interleave:
//   - beside the unit tests, at a lower priority (`nice`), the typecheck in one chain and the lint,
//     the build and the checks on the build in another: tsc keeps one core busy, the unit tests
//     two, and the unit tests' own timeouts (5 s a test) must not depend on them (run at the same
//     priority, a unit test once ran past its timeout in a fresh clone on a slow machine); in two
//     chains, the build does not wait for tsc, and tsc does not run alone once the unit tests end.
//     The build is done before any step that serves it starts;
//   - the dev-server check and the audit, which mostly wait, run beside the drills.
//
// Every step's Node processes share Node's on-disk compile cache (NODE_COMPILE_CACHE, in
// node_modules/.cache), so Vitest's, Playwright's, Miniflare's and wrangler's code is compiled
// once per install rather than once per process.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export type Step = string | { main: string; beside: string[][]; nice?: boolean }

export const STEPS: Step[] = [
  { main: 'test:unit', beside: [['typecheck'], ['lint', 'build', 'check:size', 'check:deploy']], nice: true },
  'test:worker',
  { main: 'test:drills', beside: [['check:dev', 'audit']] },
  'test:e2e',
  'test:engines',
]

/** The niceness of the steps a group runs at a lower priority (CFS gives them about a tenth of a core's share). */
const NICE = 10

interface Ran {
  name: string
  seconds: number
  code: number
}

/** The folder Node keeps compiled code in for every step (one already set is kept). */
export const compileCache = (env: Record<string, string | undefined> = process.env): string =>
  env.NODE_COMPILE_CACHE || fileURLToPath(new URL('../node_modules/.cache/node-compile-cache', import.meta.url))

/** Runs `npm run <name>`; its output is streamed, or held and returned when `hold` is set. */
function run(name: string, hold = false, nice = false): Promise<Ran & { output: string }> {
  const started = performance.now()
  const command: [string, string[]] =
    nice && process.platform !== 'win32' ? ['nice', ['-n', String(NICE), 'npm', 'run', name]] : ['npm', ['run', name]]
  return new Promise((resolve) => {
    const child = spawn(...command, {
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, NODE_COMPILE_CACHE: compileCache() },
    })
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.on('close', (code, signal) =>
      resolve({ name, seconds: (performance.now() - started) / 1000, code: code ?? (signal ? 1 : 0), output }),
    )
  })
}

/** Runs a list of steps one after another, stopping at the first that fails. */
async function inOrder(names: string[], hold: boolean, nice = false): Promise<(Ran & { output: string })[]> {
  const done: (Ran & { output: string })[] = []
  for (const name of names) {
    const ran = await run(name, hold, nice)
    done.push(ran)
    if (ran.code !== 0) break
  }
  return done
}

/** Every step's npm script, in the order npm test starts them. */
export const stepNames = (): string[] =>
  STEPS.flatMap((step) => (typeof step === 'string' ? [step] : [step.main, ...step.beside.flat()]))

/** A wall-clock time as m:ss, rounded to the second (659.6 s is 11:00, not 10:60). */
export function minutes(seconds: number): string {
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}

async function main(): Promise<void> {
  const started = performance.now()
  const ran: Ran[] = []
  let failed: Ran | undefined
  for (const step of STEPS) {
    if (typeof step === 'string') {
      const result = await run(step)
      ran.push(result)
      if (result.code !== 0) failed = result
    } else {
      const [main, ...chains] = await Promise.all([
        run(step.main),
        ...step.beside.map((chain) => inOrder(chain, true, step.nice)),
      ])
      const beside = chains.flat()
      ran.push(main)
      for (const result of beside) {
        process.stdout.write(`\n> npm run ${result.name} (beside ${step.main})\n${result.output}`)
        ran.push(result)
      }
      failed = [main, ...beside].find((result) => result.code !== 0)
    }
    if (failed) break
  }

  const total = (performance.now() - started) / 1000
  const width = Math.max(...ran.map((step) => step.name.length))
  console.log('\nnpm test, step by step (wall-clock time):')
  for (const step of ran) {
    console.log(
      `  ${step.name.padEnd(width)}  ${minutes(step.seconds).padStart(6)}${step.code === 0 ? '' : '  FAILED'}`,
    )
  }
  console.log(`  ${'total'.padEnd(width)}  ${minutes(total).padStart(6)}`)
  if (failed) {
    console.error(`\nnpm test failed at: npm run ${failed.name} (exit code ${failed.code})`)
    process.exit(failed.code || 1)
  }
}

if (import.meta.main) await main()
