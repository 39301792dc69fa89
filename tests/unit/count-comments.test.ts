// @vitest-environment node
// `npm run count:comments`: comments are at most 6 % of app/ (docs/architecture.md, "Comments").
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { COMMENT_BUDGET, countComments, countFile } from '../../scripts/count-comments.ts'
import { WEIGHT_BUDGET, weigh } from '../../scripts/count-lines.ts'

describe('the share of app/ that is comments', () => {
  it('counts lines starting with //, /*, * or {/* over the non-blank lines', () => {
    const source = [
      '/** Why, in a line. */',
      'const a = 1 // not a comment line',
      '',
      '  {/* JSX */}',
      ' * inside',
      'b()',
    ]
    expect(countFile(source.join('\n'))).toEqual({ lines: 5, comments: 3 })
  })

  it('npm run count:comments prints the share, and app/ is within the budget', () => {
    const { lines, comments, share } = countComments()
    const printed = execFileSync('npm', ['run', 'count:comments', '--silent'], { encoding: 'utf8' })
    expect(printed).toContain(`app/: ${comments} comment lines of ${lines} non-blank lines`)
    expect(share).toBeLessThanOrEqual(COMMENT_BUDGET)
    expect(countComments().files.some((f) => f.file.endsWith('routeTree.gen.ts'))).toBe(false)
  }, 30_000)
})

describe("the suite's weight against the product's", () => {
  it('npm run count:lines prints both counts; tests/ is within 1.5 × app/, and no test or support file is over 350 lines', () => {
    const { app, tests, ratio, long } = weigh()
    const printed = execFileSync('npm', ['run', 'count:lines', '--silent'], { encoding: 'utf8' })
    expect(printed).toContain(`app/ ${app} lines, tests/ ${tests} lines`)
    expect(ratio).toBeLessThanOrEqual(WEIGHT_BUDGET)
    expect(long).toEqual([])
  }, 30_000)
})
