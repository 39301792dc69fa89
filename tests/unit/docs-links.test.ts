// @vitest-environment node
// README.md's and docs/' links lead to a file and a heading (GitHub's anchors), and each file they name in code exists.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DOCUMENTS } from '../support/documented-commands'

const withoutCode = (markdown: string) => markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '')

function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replaceAll(' ', '-')
}

const anchorsOf = (file: string) =>
  new Set(
    [...withoutCode(readFileSync(file, 'utf8')).matchAll(/^#+ (.+)$/gm)].map((m) => headingAnchor(m[1] as string)),
  )

const links = DOCUMENTS.flatMap((document) =>
  [...withoutCode(readFileSync(document, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => ({ document, target })),
)

describe('links between the docs', () => {
  it('finds them', () => {
    expect(links.length).toBeGreaterThan(40)
    expect(headingAnchor('## 2. Custom domain, in two merges'.slice(3))).toBe('2-custom-domain-in-two-merges')
  })

  it.each(links.map((l) => [`${l.document} → ${l.target}`, l] as const))('%s', (_, { document, target }) => {
    const [path = '', anchor] = target.split('#')
    const file = path === '' ? document : normalize(join(dirname(document), path))
    expect(existsSync(file), `${file} exists`).toBe(true)
    if (anchor && file.endsWith('.md')) expect([...anchorsOf(file)]).toContain(anchor)
  })
})

const namedFiles = DOCUMENTS.flatMap((document) =>
  [...readFileSync(document, 'utf8').matchAll(/`((?:app|scripts|tests|migrations|public|\.github)\/[\w./[\]$-]+)`/g)]
    .map((m) => (m[1] as string).replace(/\.$/, ''))
    .filter((path) => !path.includes('<'))
    .map((path) => ({ document, path })),
)

describe('files the docs name', () => {
  it('finds them', () => {
    expect(namedFiles.length).toBeGreaterThan(100)
  })

  it('each exists', () => {
    expect(namedFiles.filter(({ path }) => !existsSync(path)).map((f) => `${f.document}: ${f.path}`)).toEqual([])
  })
})

describe('the docs are maps, not notebooks', () => {
  // A doc describes the site as it is; dated results and history go to docs/log/, which grows.
  it('README.md is at most 150 lines, and every other doc outside docs/log/ at most 300', () => {
    const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').length
    expect(lines('README.md')).toBeLessThanOrEqual(150)
    const long = DOCUMENTS.filter((d) => d !== 'README.md' && !d.startsWith('docs/log/')).filter((d) => lines(d) > 300)
    expect(long.map((d) => `${d}: ${lines(d)} lines`)).toEqual([])
  })
})
