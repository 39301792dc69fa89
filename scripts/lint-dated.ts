// The docs and the code's comments describe the project as it is; dated results and history go to
// docs/log/. This fails on a date or a commit hash in the prose of README.md and docs/ (outside
// docs/log/) and in the comments of app/, scripts/, tests/ and the root's *.config files.
//   node scripts/lint-dated.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)'
const WRITTEN_DATE = new RegExp(`\\b\\d{1,2} ${MONTH} \\d{4}\\b|\\b${MONTH} \\d{1,2},? \\d{4}\\b`, 'g')
const MONTH_YEAR = new RegExp(`\\b${MONTH} \\d{4}\\b`, 'g')
const ISO_DATE = /\b20\d\d-[01]\d-[0-3]\d\b/g
// A commit: 7 to 40 hex digits with a digit and a letter among them.
const HASH = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g

export interface Finding {
  line: number
  what: string
  text: string
}

function scan(text: string, line: number, { hashes, iso }: { hashes: boolean; iso: boolean }): Finding[] {
  const found: Finding[] = []
  const add = (what: string, re: RegExp, from: string) => {
    for (const m of from.matchAll(re)) found.push({ line, what, text: m[0] })
    return from.replace(re, ' ')
  }
  let rest = add('a date', WRITTEN_DATE, text)
  rest = add('a month and year', MONTH_YEAR, rest)
  if (iso) rest = add('a date', ISO_DATE, rest)
  if (hashes) add('a commit hash', HASH, rest)
  return found
}

/**
 * The dated words of a Markdown text's prose. Exempt: fenced blocks, code spans (but a span that
 * is nothing but a commit hash is a commit), link targets and bare URLs, and a link's own words
 * when it leads to another site or a cited source (`[beta since April 2026][key]`): a dated fact
 * about the platform is written as the link to where the vendor says it.
 */
export function datedInMarkdown(markdown: string): Finding[] {
  const found: Finding[] = []
  let fenced = false
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) {
      fenced = !fenced
      return
    }
    if (fenced || /^\s*<!--/.test(raw)) return
    for (const m of raw.matchAll(/`([0-9a-f]{7,40})`/g))
      found.push(...scan(m[1] as string, i + 1, { hashes: true, iso: false }).filter((f) => f.what === 'a commit hash'))
    const prose = raw
      .replace(/`[^`]*`/g, ' ')
      .replace(/\[[^\]]*\]\(https?:[^)]*\)/g, ' ')
      .replace(/\[[^\]]*\]\[[^\]]+\]/g, ' ')
      .replace(/\]\([^)]*\)/g, ']')
      .replace(/https?:\/\/\S+/g, ' ')
    found.push(...scan(prose, i + 1, { hashes: true, iso: true }))
  })
  return found
}

/**
 * The dated words of a source file's comments (a line's `//` part, and block comments' lines): a
 * written-out date, or a commit named as one. An ISO date there is a fixture's, explained.
 */
export function datedInComments(source: string): Finding[] {
  const found: Finding[] = []
  let block = false
  source.split('\n').forEach((raw, i) => {
    const trimmed = raw.trim()
    let comment = ''
    if (block || trimmed.startsWith('/*') || trimmed.startsWith('{/*')) {
      comment = trimmed
      block = !trimmed.includes('*/')
    } else {
      const at = raw.search(/(?<![:'"`\\])\/\/(?![/'"`])/)
      if (at >= 0) comment = raw.slice(at)
    }
    if (!comment) return
    const words = comment
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/`[^`]*`/g, (span) => span.replace(/[^0-9a-f`]/g, ' '))
    found.push(...scan(words, i + 1, { hashes: /\bcommit\b|`[0-9a-f]{7,40}`/.test(comment), iso: false }))
  })
  return found
}

const walk = (dir: string, keep: (path: string) => boolean): string[] =>
  (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path, keep)
    return keep(path) ? [path] : []
  })

export function datedProblems(root = '.'): string[] {
  const problems: string[] = []
  const report = (file: string, findings: Finding[]) => {
    for (const f of findings) problems.push(`${file}:${f.line}: ${f.what} ("${f.text}")`)
  }
  const relative = (path: string) => (root === '.' ? path : path.slice(root.length + 1))
  const docs = ['README.md', ...walk(join(root, 'docs'), (p) => p.endsWith('.md')).map(relative)].filter(
    (p) => !p.startsWith('docs/log/') && existsSync(join(root, p)),
  )
  for (const doc of docs) report(doc, datedInMarkdown(readFileSync(join(root, doc), 'utf8')))
  const code = (p: string) => /\.(ts|tsx|mjs|js)$/.test(p) && !p.endsWith('routeTree.gen.ts')
  const configs = readdirSync(root).filter((f) => /\.config\.(ts|mjs|js)$/.test(f))
  for (const file of [
    ...['app', 'scripts', 'tests'].flatMap((dir) => walk(join(root, dir), code)),
    ...configs.map((f) => join(root, f)),
  ])
    report(relative(file), datedInComments(readFileSync(file, 'utf8')))
  return problems
}

if (import.meta.main) {
  const problems = datedProblems()
  for (const p of problems) console.error(p)
  if (problems.length > 0) {
    console.error(
      `lint-dated: ${problems.length} dated result(s) or commit hash(es) outside docs/log/: say what is true now, and put the dated result in docs/log/`,
    )
    process.exit(1)
  }
  console.log('lint-dated: no date or commit hash in the docs outside docs/log/, nor in the comments')
}
