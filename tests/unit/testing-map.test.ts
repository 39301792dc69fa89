// @vitest-environment node
// docs/testing.md's table "What is proven where" names real test files, and every test file has a row.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const FOLDERS = ['unit', 'worker', 'e2e', 'drills', 'engines'] as const
const section = readFileSync('docs/testing.md', 'utf8').split('## What is proven where')[1]?.split('\n## ')[0] ?? ''
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !/^\| (Behaviour|---)/.test(line))

/** Each name the table gives, as `folder/name`: the unit, workerd and browser columns, or a prefixed name. */
const named = rows.flatMap((row) => {
  const [, , unit, worker, other] = row.split('|').map((cell) => cell.trim())
  const names = (cell: string | undefined, folder: string) =>
    (cell ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => (name.includes('/') ? name : `${folder}/${name}`))
  return [...names(unit, 'unit'), ...names(worker, 'worker'), ...names(other, 'e2e')]
})

const testFiles = FOLDERS.flatMap((folder) =>
  readdirSync(`tests/${folder}`)
    .map((file) => file.match(/^(.+)\.(test|spec)\.tsx?$/)?.[1])
    .filter((name): name is string => name !== undefined)
    .map((name) => `${folder}/${name}`),
)

describe('the map of what is proven where', () => {
  it('has rows', () => {
    expect(rows.length).toBeGreaterThan(10)
  })

  it('names only test files that exist', () => {
    const missing = named.filter((name) => {
      const [folder, stem] = name.split('/')
      return !['test.ts', 'test.tsx', 'spec.ts'].some((ext) => existsSync(`tests/${folder}/${stem}.${ext}`))
    })
    expect(missing).toEqual([])
  })

  it('gives every test file a row', () => {
    expect(testFiles.filter((name) => !named.includes(name))).toEqual([])
  })
})
