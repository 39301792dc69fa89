// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { placeholders, runbookBlocks, runbookPages, runbookText } from '../drills/support/runbook'

const RUNBOOK = runbookText()
const blocks = runbookBlocks(RUNBOOK)
const drillSources = readdirSync('tests/drills')
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => ({ file: `tests/drills/${f}`, text: readFileSync(join('tests/drills', f), 'utf8') }))
const support = readdirSync('tests/drills/support').map((f) => readFileSync(join('tests/drills/support', f), 'utf8'))

describe('docs/operations/: every procedure is run by a drill', () => {
  it('every shell block is marked for a drill, once', () => {
    const shell = blocks.filter((b) => b.lang === 'sh')
    expect(shell.length).toBeGreaterThanOrEqual(10)
    expect(shell.filter((b) => !b.marked).map((b) => `${b.section}: ${b.text}`)).toEqual([])
    const ids = shell.map((b) => b.id)
    expect(new Set(ids).size).toBe(ids.length)
    // Config snippets (toml) are files to edit, not commands.
    expect(blocks.filter((b) => b.lang !== 'sh').every((b) => b.lang === 'toml')).toBe(true)
  })

  it('every marked block is run by a drill, and every block a drill names exists', () => {
    const everything = [...drillSources.map((d) => d.text), ...support].join('\n')
    for (const block of blocks.filter((b) => b.marked)) expect(everything, block.id).toContain(`'${block.id}'`)
    const named = [...everything.matchAll(/runbook\(\s*'([\w/-]+)'/g)].map((m) => m[1])
    for (const id of named) expect(blocks.map((b) => b.id)).toContain(id)
  })

  it('every numbered section names the drill or tests that run it, and they exist', () => {
    const sections = RUNBOOK.split(/^# /m).filter((s) => /^\d+\. /.test(s))
    expect(sections.length).toBeGreaterThanOrEqual(15)
    for (const section of sections) {
      const title = section.split('\n')[0]
      const intro = section.split('\n').slice(1, 8).join('\n')
      expect(intro, title).toMatch(
        /^(Drills?:|Tests:|Not drilled:|The alerts are|Reference figures|`npm test` checks)/m,
      )
      for (const file of intro.matchAll(/`(tests\/[\w./-]+\.ts)`/g))
        expect(existsSync(file[1] as string), file[1]).toBe(true)
    }
  })

  it('each procedure is a page of its own, listed in the index', () => {
    const index = readFileSync('docs/operations/README.md', 'utf8')
    const pages = runbookPages().filter((p) => !p.file.endsWith('/README.md'))
    expect(pages.length).toBeGreaterThanOrEqual(15)
    for (const page of pages) {
      expect(page.text.match(/^# /gm), page.file).toHaveLength(1)
      expect(index, page.file).toContain(`](${page.file.split('/').pop()})`)
    }
  })

  it('each block’s placeholders are words in angle brackets the drill fills in', () => {
    for (const block of blocks.filter((b) => b.marked)) {
      for (const name of placeholders(block.text)) expect(name, block.id).toMatch(/^[a-z][a-z ]*$/)
    }
  })

  it('none of the findings come back: no stdout JSON, no ignored --yes, no versions deploy, versions secret put only for a rolled-back secret', () => {
    const commands = blocks.map((b) => b.text).join('\n')
    expect(commands).not.toMatch(/--json\s*>/)
    expect(commands).not.toMatch(/rollback[^\n]*--yes/)
    // `versions deploy` of the latest upload after a rollback would serve the code rolled back from;
    // `versions secret put` only puts the right value onto it for the next deploy (§ 9).
    expect(commands).not.toMatch(/versions deploy/)
    expect(blocks.filter((b) => /versions secret put/.test(b.text)).map((b) => b.id)).toEqual(['rollback/bad-secret'])
    // After a deploy or a rollback, the smoke test waits for the version it judges.
    expect(runbookBlocks(RUNBOOK).find((b) => b.id === 'rollback/by-hand')?.text).toMatch(
      /npm run smoke -- --production --version <version id>/,
    )
    expect(commands).not.toMatch(/printf[^\n]*'<the key>'/)
    expect(RUNBOOK).not.toMatch(/Cloudflare's Previews documentation lists no number/)
  })
})
