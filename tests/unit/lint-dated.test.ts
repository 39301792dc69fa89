// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { datedInComments, datedInMarkdown } from '../../scripts/lint-dated.ts'
import { scratchDir } from '../support/scratch'

const found = (markdown: string) => datedInMarkdown(markdown).map((f) => f.text)

describe('the lint against logs in the docs', () => {
  it('finds a dated result or a commit in prose', () => {
    expect(found('TBT 0–2 ms, measured on 2 December 2026 at `93344b1`.').sort()).toEqual([
      '2 December 2026',
      '93344b1',
    ])
    expect(found('The last run, November 24, 2026 (commit 0f2bb49), seed 1.')).toEqual(['November 24, 2026', '0f2bb49'])
    expect(found('In the slower sittings of December 2026 it took longer.')).toEqual(['December 2026'])
    expect(found('Counted per network since 2026-11-26.')).toEqual(['2026-11-26'])
  })

  it('leaves code, URLs, examples and a cited platform date alone', () => {
    const exempt = [
      'An enquiry id such as `20261124-AbCdEf`, and `compatibility_date = "2026-10-12"`.',
      '```sh\ngit log 93344b1 --since 2026-11-01\n```',
      'See https://developers.cloudflare.com/changelog/post/2026-04-16-email-sending-public-beta/ for it.',
      'Email Sending ([public beta since April 2026][email-sending]), or [its changelog, 16 April 2026](https://developers.cloudflare.com/changelog/).',
      'A page of 2,048 bytes, a digest at 07:00 UTC, a word such as facade or decade.',
      '<!-- drill: rollback/by-hand -->',
    ]
    for (const text of exempt) expect(found(text), text).toEqual([])
  })

  it('reads code comments for dates and named commits, not code or a fixture explained', () => {
    const source = [
      "const at = '2026-11-23T10:00:00Z' // 2026-11-23 is a Monday.",
      '// The longest files (27 November 2026: 71 s) start first.',
      '/**',
      ' * Fixed in commit 345e992, the bench moved.',
      ' */',
      "const id = 'abcdef1234'",
    ].join('\n')
    expect(datedInComments(source).map((f) => [f.line, f.text])).toEqual([
      [2, '27 November 2026'],
      [4, '345e992'],
    ])
  })

  it('`npm run lint` exits 1 on a dated result in a doc or a comment, and passes on docs/log/', () => {
    const root = scratchDir('lint-dated')
    for (const dir of ['docs/log', 'app']) mkdirSync(join(root, dir), { recursive: true })
    const lint = () => spawnSync(process.execPath, [resolve('scripts/lint-dated.ts')], { cwd: root, encoding: 'utf8' })
    writeFileSync(join(root, 'README.md'), '# Site\n\nLCP 915–942 ms (`npm run bench`).\n')
    writeFileSync(join(root, 'docs/log/results.md'), '# Log\n\nLCP 915–942 ms on 2 December 2026 at `93344b1`.\n')
    writeFileSync(join(root, 'app/page.ts'), '// Renders the page.\nexport const page = 1\n')
    expect(lint().status).toBe(0)

    writeFileSync(join(root, 'docs/performance.md'), '# Performance\n\nLCP 915–942 ms on 2 December 2026.\n')
    writeFileSync(join(root, 'app/page.ts'), '// Took 4 ms at commit 93344b1.\nexport const page = 1\n')
    const run = lint()
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('docs/performance.md:3: a date ("2 December 2026")')
    expect(run.stderr).toContain('app/page.ts:1: a commit hash ("93344b1")')
  }, 60_000)
})
