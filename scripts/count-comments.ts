// The share of app/ that is comments: lines starting with //, /*, * or {/* over the non-blank
// lines of its .ts and .tsx files (the generated route tree aside). Comments say why, in a line or
// two; the budget keeps them from turning into a notebook.
//   npm run count:comments            prints the count, the share and the files with most comments
//   npm run count:comments -- --check fails when the share is over the budget
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const COMMENT_BUDGET = 0.06

const COMMENT = /^(\/\/|\/\*|\*|\{\/\*)/

export interface FileCount {
  file: string
  lines: number
  comments: number
}

export function countFile(text: string): { lines: number; comments: number } {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
  return { lines: lines.length, comments: lines.filter((l) => COMMENT.test(l)).length }
}

export function countComments(dir = 'app'): { files: FileCount[]; lines: number; comments: number; share: number } {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('routeTree.gen.ts'))
    .sort()
    .map((f) => ({ file: join(dir, f), ...countFile(readFileSync(join(dir, f), 'utf8')) }))
  const lines = files.reduce((n, f) => n + f.lines, 0)
  const comments = files.reduce((n, f) => n + f.comments, 0)
  return { files, lines, comments, share: lines === 0 ? 0 : comments / lines }
}

if (import.meta.main) {
  const { files, lines, comments, share } = countComments()
  const percent = (n: number) => `${(n * 100).toFixed(1)} %`
  console.log(`app/: ${comments} comment lines of ${lines} non-blank lines, ${percent(share)}`)
  console.log(`budget: ${percent(COMMENT_BUDGET)}`)
  for (const f of [...files].sort((a, b) => b.comments - a.comments).slice(0, 10))
    console.log(`  ${String(f.comments).padStart(4)} of ${String(f.lines).padStart(4)}  ${f.file}`)
  if (process.argv.includes('--check') && share > COMMENT_BUDGET) {
    console.error(`count:comments: ${percent(share)} of app/ is comments, over the ${percent(COMMENT_BUDGET)} budget`)
    process.exit(1)
  }
}
