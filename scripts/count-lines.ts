// The suite's weight against the product's: every file's lines under tests/ over those under app/
// (as `wc -l` counts them), and the test and support files over the length a reader takes in.
//   npm run count:lines            prints both counts, the ratio, each folder of tests/ and the long files
//   npm run count:lines -- --check fails over the ratio or on a long file
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const WEIGHT_BUDGET = 1.5
export const LONGEST_FILE = 350

export interface LineCount {
  file: string
  lines: number
}

export function countLines(dir: string): LineCount[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((file) => statSync(file).isFile())
    .sort()
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
}

export function weigh() {
  const sum = (files: LineCount[]) => files.reduce((n, f) => n + f.lines, 0)
  const tests = countLines('tests')
  const app = sum(countLines('app'))
  const suite = sum(tests)
  const long = tests.filter((f) => f.lines > LONGEST_FILE && /\.[cm]?[jt]sx?$/.test(f.file))
  return { app, tests: suite, ratio: suite / app, long, files: tests }
}

if (import.meta.main) {
  const { app, tests, ratio, long, files } = weigh()
  console.log(`app/ ${app} lines, tests/ ${tests} lines: ${ratio.toFixed(2)} × (budget ${WEIGHT_BUDGET} ×)`)
  const folders = new Map<string, number>()
  for (const f of files) {
    const folder = f.file.split('/').slice(0, 2).join('/')
    folders.set(folder, (folders.get(folder) ?? 0) + f.lines)
  }
  for (const [folder, lines] of [...folders].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(lines).padStart(6)}  ${folder}`)
  for (const f of long) console.log(`over ${LONGEST_FILE} lines: ${f.file} (${f.lines})`)
  if (process.argv.includes('--check') && (ratio > WEIGHT_BUDGET || long.length > 0)) {
    console.error(`count:lines: tests/ is ${ratio.toFixed(2)} × app/, or a file is over ${LONGEST_FILE} lines`)
    process.exit(1)
  }
}
