// @vitest-environment node
// `npm run check:size` (scripts/check-size.ts) on fixture builds.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'
import { pages } from '~/content/pages'
import { JS_BUDGET_KB, NOT_FOUND_ROUTE } from '../../scripts/first-load'
import { scratchDir } from '../support/scratch'

/** Text that gzip cannot shrink much, the same for the same seed. */
function noise(length: number, seed: number): string {
  let state = seed
  let text = ''
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    text += (state >>> 8).toString(36)
  }
  return text.slice(0, length)
}

// Each test runs the command itself, a Node process of its own: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 })

type Files = Record<string, string>

/** A build folder as `npm run build` leaves it: Start's route manifest in the server build, the chunks in the client's. */
function fixtureDist(chunks: Files, routes: Record<string, { preloads?: string[]; children?: string[] }>): string {
  const dist = scratchDir('check-size')
  mkdirSync(join(dist, 'server', 'assets'), { recursive: true })
  mkdirSync(join(dist, 'client', 'assets'), { recursive: true })
  const manifest = {
    __root__: {
      children: Object.keys(routes),
      preloads: ['/assets/index-Entry001.js'],
      scripts: [{ attrs: { type: 'module', async: true, src: '/assets/index-Entry001.js' } }],
    },
    ...routes,
  }
  writeFileSync(
    join(dist, 'server', 'assets', '_tanstack-start-manifest_v-Fixture1.js'),
    `var tsrStartManifest = () => ({ routes: ${JSON.stringify(manifest)} });\nexport { tsrStartManifest };\n`,
  )
  for (const [name, text] of Object.entries(chunks)) writeFileSync(join(dist, 'client', 'assets', name), text)
  return dist
}

/** Every page has a route chunk of its own; `/services` is an index route, as in app/routes. */
function siteRoutes(extra: Record<string, string[]> = {}) {
  return Object.fromEntries(
    pages.map((page) => [
      page.path === '/services' ? '/services/' : page.path,
      { preloads: [`/assets/${chunkName(page.path)}`, ...(extra[page.path] ?? [])] },
    ]),
  )
}
const chunkName = (path: string) => `page${path.replace(/\//g, '_')}-Chunk001.js`

function siteChunks(entryNoise: number, pageNoise: (path: string) => number): Files {
  const files: Files = {
    'index-Entry001.js': `export const a=1;const n=\`${noise(entryNoise, 1)}\`;import("./ErrorPage-Lazy0001.js");`,
    'ErrorPage-Lazy0001.js': `import{a}from"./index-Entry001.js";export const e=\`${noise(900, 2)}\`;`,
  }
  for (const [i, page] of pages.entries())
    files[chunkName(page.path)] =
      `import{a}from"./index-Entry001.js";export const p=\`${noise(pageNoise(page.path), 10 + i)}\`;`
  return files
}

const gz = (text: string) => gzipSync(text, { level: 9 }).length
const kb = (files: Files, names: string[]) =>
  (names.reduce((sum, name) => sum + gz(files[name] as string), 0) / 1024).toFixed(2)

function checkSize(dist: string) {
  const run = spawnSync(process.execPath, ['scripts/check-size.ts', dist], { encoding: 'utf8' })
  const rows = new Map(
    run.stdout
      .split('\n')
      .filter((line) => line.startsWith('| /'))
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map((cells) => [cells[1] as string, { kb: cells[2], budget: cells[3], margin: cells[4], scripts: cells[5] }]),
  )
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, rows }
}

describe('npm run check:size', () => {
  it('prints every page with its first-load JavaScript, the budget and the margin, and passes within it', () => {
    const files = siteChunks(60_000, () => 2_000)
    const result = checkSize(fixtureDist(files, siteRoutes()))
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect([...result.rows.keys()]).toEqual([...pages.map((page) => page.path), NOT_FOUND_ROUTE])
    for (const page of pages) {
      const size = kb(files, ['index-Entry001.js', chunkName(page.path)])
      expect(result.rows.get(page.path)).toEqual({
        kb: size,
        budget: String(JS_BUDGET_KB),
        margin: `+${(JS_BUDGET_KB - Number(size)).toFixed(2)}`,
        scripts: '2',
      })
    }
    expect(result.stdout).toContain(`Every page within the ${JS_BUDGET_KB} KB budget`)
  })

  it('fails, naming the page, when one page is over the budget', () => {
    // The entry alone is within the budget; the home page's own chunk takes it over.
    const files = siteChunks(180_000, (path) => (path === '/' ? 25_000 : 500))
    const home = Number(kb(files, ['index-Entry001.js', chunkName('/')]))
    const about = Number(kb(files, ['index-Entry001.js', chunkName('/about')]))
    expect(home).toBeGreaterThan(JS_BUDGET_KB)
    expect(about).toBeLessThan(JS_BUDGET_KB)

    const result = checkSize(fixtureDist(files, siteRoutes()))
    expect(result.code).toBe(1)
    expect(result.rows.get('/')?.margin).toBe(`-${(home - JS_BUDGET_KB).toFixed(2)}  OVER`)
    expect(result.rows.get('/about')?.margin).toBe(`+${(JS_BUDGET_KB - about).toFixed(2)}`)
    expect(result.stderr).toContain(`1 of 13 pages over the ${JS_BUDGET_KB} KB budget: / ${home.toFixed(2)} KB`)
  })

  it("counts what the page's chunks import, not what they may import later, and the not-found page's own chunk", () => {
    const files = siteChunks(1_000, () => 1_000)
    files['shared-Chunk001.js'] = `import"./deep-Chunk001.js";export const s=\`${noise(3_000, 3)}\`;`
    files['deep-Chunk001.js'] = `export const d=\`${noise(3_000, 4)}\`;`
    files['later-Chunk001.js'] = `export const l=\`${noise(3_000, 5)}\`;`
    files[chunkName('/about')] =
      `import{a}from"./index-Entry001.js";import{s}from"./shared-Chunk001.js";const later=()=>import("./later-Chunk001.js");`
    const result = checkSize(fixtureDist(files, siteRoutes()))
    expect(result.code).toBe(0)
    expect(result.rows.get('/about')).toMatchObject({
      kb: kb(files, ['index-Entry001.js', chunkName('/about'), 'shared-Chunk001.js', 'deep-Chunk001.js']),
      scripts: '4',
    })
    expect(result.rows.get(NOT_FOUND_ROUTE)).toMatchObject({
      kb: kb(files, ['index-Entry001.js', 'ErrorPage-Lazy0001.js']),
      scripts: '2',
    })
  })

  it('says so when there is no build, or a page has no route in it', () => {
    const missing = checkSize(join(tmpdir(), 'check-size-no-such-build'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('run npm run build first')

    const routes = siteRoutes()
    delete routes['/privacy']
    const chunks = siteChunks(1_000, () => 1_000)
    const incomplete = checkSize(fixtureDist(chunks, routes))
    expect(incomplete.code).not.toBe(0)
    expect(incomplete.stderr).toContain("No route for /privacy in Start's manifest")
  })

  it('is the budget docs/performance.md states', () => {
    expect(readFileSync('docs/performance.md', 'utf8')).toContain(`first-load JavaScript ≤ ${JS_BUDGET_KB} KB gzip`)
  })
})
