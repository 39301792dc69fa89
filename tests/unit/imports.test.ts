// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/** docs/architecture.md's floors ("What may import what"), lowest first: a file imports its own floor or lower. */
const FLOORS = [
  ['content/', 'site.ts'],
  ['lib/'],
  ['server/'],
  ['document/'],
  ['ledger/'],
  ['notices/'],
  ['contact/'],
  ['desk/'],
  ['components/'],
  ['routes/'],
  ['worker.ts', 'cron.server.ts', 'cron-budget.ts', 'start.ts', 'router.tsx', 'routeTree.gen.ts'],
] as const

/** The folders others reach only through their front doors, `index.ts` and `index.server.ts`. */
const FRONT_DOORS: Record<string, string[]> = Object.fromEntries(
  ['ledger/', 'notices/', 'contact/', 'desk/'].map((folder) => [
    folder,
    [`${folder}index.ts`, `${folder}index.server.ts`],
  ]),
)

/** Every allowed exception (`importer -> imported`, folders end in `/`) with its reason; an unused one fails. */
const EXCEPTIONS: Record<string, string> = {
  // Light modules for what every page's first load carries; the front doors would bring valibot along.
  'routes/contact.tsx -> contact/form-state.ts': "the /contact route's loader",
  'routes/products.tsx -> contact/early-access.functions.ts': "the /products route's loader (the early-access panel)",
  'routes/products.tsx -> contact/early-access-result.ts': "the /products route's search check",
  // Turnstile's script and constants for the early-access form's lazy code, without the contact form's modules.
  'components/contact/turnstile-script.ts -> contact/turnstile.ts': "Turnstile's script address",
  'components/early-access/early-access-code.ts -> contact/turnstile.ts': "Turnstile's action and field",
  'components/contact/DeferredContactForm.tsx -> contact/draft.ts': 'hasDraft(), before the form loads',
  'routes/admin/ -> desk/head.ts': "the desk routes' head() and search, in the route tree every page loads",
  // Plain Node loads the webhooks' rules (npm run check:config): it cannot resolve `~/`.
  'contact/webhooks.ts -> ledger/fields.ts': "the webhook payload's fields, by a path plain Node loads",
}
const APP = join(process.cwd(), 'app')

function appFiles(): string[] {
  return readdirSync(APP, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => file.split('\\').join('/'))
}

/** The app files a source imports (static, type-only, re-exports and, unless `loadTime`, dynamic). */
function importsOf(file: string, source: string, loadTime = false): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...(loadTime ? [] : source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)),
  ].map((match) => match[1] ?? '')
  return specifiers.flatMap((specifier) => {
    const bare = specifier.replace(/\?.*$/, '')
    const target = bare.startsWith('~/')
      ? join(APP, bare.slice(2))
      : bare.startsWith('.')
        ? join(APP, dirname(file), bare)
        : null
    if (!target) return []
    const found = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find(
      (path) => existsSync(path) && !path.endsWith('/'),
    )
    return [
      relative(APP, found ?? target)
        .split('\\')
        .join('/'),
    ]
  })
}

function floorOf(file: string): number {
  const floor = FLOORS.findIndex((entries) =>
    entries.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry)),
  )
  if (floor < 0) throw new Error(`app/${file} is on no floor: add its folder to FLOORS (and to docs/architecture.md)`)
  return floor
}

const folderOf = (file: string) => Object.keys(FRONT_DOORS).find((folder) => file.startsWith(folder))

/** The exception that allows `from -> to`, if any (a rule's side ending in `/` names a folder). */
function exceptionFor(from: string, to: string): string | undefined {
  const covers = (rule: string, file: string) => (rule.endsWith('/') ? file.startsWith(rule) : file === rule)
  return Object.keys(EXCEPTIONS).find((rule) => {
    const [ruleFrom = '', ruleTo = ''] = rule.split(' -> ')
    return covers(ruleFrom, from) && covers(ruleTo, to)
  })
}

/** Every import of app/ that breaks a rule, and the exceptions that were used. */
function check(files: Map<string, string>) {
  const broken: string[] = []
  const used = new Set<string>()
  for (const [file, source] of files) {
    for (const target of importsOf(file, source)) {
      if (!files.has(target)) continue
      const folder = folderOf(target)
      const throughDoor = !folder || file.startsWith(folder) || FRONT_DOORS[folder]?.includes(target)
      const upward = floorOf(target) > floorOf(file)
      if (throughDoor && !upward) continue
      const exception = exceptionFor(file, target)
      if (exception) used.add(exception)
      else
        broken.push(
          `app/${file} -> app/${target}: ${upward ? 'runs up the floors' : `bypasses ${folder}'s front door`}`,
        )
    }
  }
  return { broken, used }
}

/** The import circles of app/ through load-time imports (Tarjan's components); an `import()` closes none. */
function circles(files: Map<string, string>): string[][] {
  const edges = new Map(
    [...files].map(([file, source]) => [file, importsOf(file, source, true).filter((t) => files.has(t))]),
  )
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (file: string) => {
    order.set(file, order.size)
    low.set(file, order.size - 1)
    stack.push(file)
    for (const next of edges.get(file) ?? []) {
      if (!order.has(next)) visit(next)
      if (stack.includes(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0))
    }
    if (low.get(file) !== order.get(file)) return
    const circle = stack.splice(stack.indexOf(file))
    if (circle.length > 1 || edges.get(file)?.includes(file)) found.push(circle.sort())
  }
  for (const file of edges.keys()) if (!order.has(file)) visit(file)
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''))
}

/** The one circle allowed: the router imports the generated route tree, which imports the router's type. */
const ROUTER_PAIR = ['routeTree.gen.ts', 'router.tsx']

function readApp(): Map<string, string> {
  return new Map(appFiles().map((file) => [file, readFileSync(join(APP, file), 'utf8')]))
}

describe('the import rules (docs/architecture.md, "What may import what")', () => {
  it('hold for every import in app/, with only the exceptions named above', () => {
    expect(check(readApp()).broken).toEqual([])
  })

  it('name no exception that no import needs', () => {
    const { used } = check(readApp())
    expect(Object.keys(EXCEPTIONS).filter((rule) => !used.has(rule))).toEqual([])
  })

  it('put every file of app/ on a floor', () => {
    for (const file of appFiles()) expect(() => floorOf(file), file).not.toThrow()
  })

  it('catch an import that bypasses a front door or runs up the floors, out of content included', () => {
    const files = readApp()
    files.set('components/Probe.tsx', "import { storeEnquiry } from '~/ledger/enquiries.server'\n")
    // The arrows the ledger took away: the ledger's record reaching into the desk, the notices into the form.
    files.set('ledger/probe.ts', "import { recordAudit } from '~/desk/index.server'\n")
    files.set('notices/probe.ts', "import { attemptNow } from '~/contact/index.server'\n")
    files.set('lib/probe.ts', "import { Icon } from '~/components/Icon'\n")
    files.set('content/probe.ts', "import { absoluteUrl } from '../lib/seo'\n")
    // The arrows the document's folder took away: the renderer into components/, the page cache into desk/.
    files.set('document/probe.ts', "import { PageHero } from '~/components/sections/PageHero'\n")
    files.set('server/probe.ts', "import { isDeskPath } from '~/desk/paths'\n")
    expect(check(files).broken).toEqual([
      "app/components/Probe.tsx -> app/ledger/enquiries.server.ts: bypasses ledger/'s front door",
      'app/ledger/probe.ts -> app/desk/index.server.ts: runs up the floors',
      'app/notices/probe.ts -> app/contact/index.server.ts: runs up the floors',
      'app/lib/probe.ts -> app/components/Icon.tsx: runs up the floors',
      'app/content/probe.ts -> app/lib/seo.ts: runs up the floors',
      'app/document/probe.ts -> app/components/sections/PageHero.tsx: runs up the floors',
      'app/server/probe.ts -> app/desk/paths.ts: runs up the floors',
    ])
  })

  it('find no import circle in app/ but the router and its generated route tree', () => {
    expect(circles(readApp())).toEqual([ROUTER_PAIR])
  })

  it('catch an import circle, however long', () => {
    const files = readApp()
    const add = (file: string, line: string) => files.set(file, `${files.get(file)}\n${line}\n`)
    // record.ts → triage.ts → columns.ts → record.ts
    add('ledger/record.ts', "import { replyBy } from './triage'")
    add('ledger/triage.ts', "export { toRecord } from './columns'")
    expect(circles(files)).toEqual([['ledger/columns.ts', 'ledger/record.ts', 'ledger/triage.ts'], ROUTER_PAIR])
  })
})
