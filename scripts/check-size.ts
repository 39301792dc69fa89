// `npm run check:size`: each page's first-load JavaScript, read from the build in dist/ (it builds
// nothing; `npm test` builds first), against the budget in scripts/first-load.ts. Counted as
// `npm run bench` counts it (the same module): every script the page loads before it is
// interactive, each body as gzip -9. Prints a table; exits 1 when a page is over the budget.
//   node scripts/check-size.ts [dist]   another build folder (the tests use a fixture)
import { existsSync } from 'node:fs'
import { firstLoadSizes, JS_BUDGET_KB, type PageSize } from './first-load.ts'

export function sizeTable(sizes: readonly PageSize[], budget = JS_BUDGET_KB): string {
  const rows = sizes.map((page) => [
    page.route,
    page.kb.toFixed(2),
    String(budget),
    `${page.kb > budget ? '' : '+'}${(budget - page.kb).toFixed(2)}${page.kb > budget ? '  OVER' : ''}`,
    String(page.scripts.length),
  ])
  const head = ['page', 'KB gzip', 'budget', 'margin', 'scripts']
  const widths = head.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] as string).length)))
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] as number)).join(' | ')} |`
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')
}

async function main(): Promise<void> {
  const dist = process.argv[2] ?? 'dist'
  if (!existsSync(dist)) {
    console.error(`check:size: no build at ${dist}/ (run npm run build first)`)
    process.exit(2)
  }
  const sizes = await firstLoadSizes(dist)
  console.log(`First-load JavaScript per page, gzip -9 (KB = 1,024 bytes), read from ${dist}/:\n`)
  console.log(sizeTable(sizes))
  const over = sizes.filter((page) => page.kb > JS_BUDGET_KB)
  if (over.length) {
    console.error(
      `\n${over.length} of ${sizes.length} pages over the ${JS_BUDGET_KB} KB budget: ${over
        .map((page) => `${page.route} ${page.kb.toFixed(2)} KB`)
        .join(', ')}`,
    )
    process.exit(1)
  }
  const tightest = sizes.reduce((a, b) => (b.kb > a.kb ? b : a))
  console.log(
    `\nEvery page within the ${JS_BUDGET_KB} KB budget; the least margin: ${tightest.route}, ${(JS_BUDGET_KB - tightest.kb).toFixed(2)} KB.`,
  )
}

if (import.meta.main) await main()
