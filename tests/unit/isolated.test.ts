// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ISOLATED_FILES, NEEDS_ISOLATION } from './isolated'

const files = readdirSync('tests/unit').filter((name) => /\.test\.tsx?$/.test(name))

describe('the unit tests that share their worker', () => {
  it('mock no module, stub no global or environment, fake no clock: every file that does is isolated', () => {
    const needing = files.filter((name) => NEEDS_ISOLATION.test(readFileSync(`tests/unit/${name}`, 'utf8')))
    expect(needing.filter((name) => !ISOLATED_FILES.includes(name))).toEqual([])
  })

  it('names only files that exist', () => {
    expect(ISOLATED_FILES.filter((name) => !files.includes(name))).toEqual([])
  })
})

it('the worker tests and the drills, which share their worker’s module graph, mock, stub and fake nothing', () => {
  const shared = ['tests/worker', 'tests/drills'].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${dir}/${name}`),
  )
  expect(shared.length).toBeGreaterThan(40)
  expect(shared.filter((path) => NEEDS_ISOLATION.test(readFileSync(path, 'utf8')))).toEqual([])
})
