// A page's first-load JavaScript, counted one way for `npm run bench` (which sees the scripts a
// browser loaded) and `npm run check:size` (which reads them from dist/): each script's body
// compressed with gzip -9, summed, against one budget (docs/performance.md).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { pages } from '../app/content/pages.ts'

/** The most first-load JavaScript a page may have, in KB (1,024 bytes) of gzip -9. */
export const JS_BUDGET_KB = 125

/** A path no route matches: the not-found page. */
export const NOT_FOUND_ROUTE = '/this-page-does-not-exist'

/** Every page measured: the public pages, then the not-found page. */
export const ROUTES: readonly string[] = [...pages.map((page) => page.path), NOT_FOUND_ROUTE]

/**
 * The bytes a body costs on the wire, the same whatever encoding a server chooses: text as gzip -9,
 * fonts and images as they are (already compressed; servers send them so).
 */
export function wireBytes(path: string, body: Uint8Array): number {
  const compressible = /\.(js|mjs|css|svg|html|json|txt|xml)$/.test(path) || !/\.\w+$/.test(path)
  return compressible ? gzipSync(body, { level: 9 }).length : body.length
}

export const kb = (bytes: number): number => bytes / 1024

/** The scripts' total in KB, each script's body measured by `wireBytes`. */
export function scriptsKB(scripts: readonly { path: string; body: Uint8Array }[]): number {
  return kb(scripts.reduce((sum, script) => sum + wireBytes(script.path, script.body), 0))
}

/** What Start's manifest (in the server build) holds for one route. */
interface ManifestRoute {
  children?: string[]
  preloads?: string[]
  scripts?: { attrs?: { src?: unknown } }[]
}

/**
 * Chunks a page imports while it hydrates beyond its routes' own, by the chunk's name: the
 * not-found page's own code (`LazyNotFound`, app/components/lazy-pages.tsx), which the root route
 * loads only when that page is shown.
 */
const LOADED_WHEN_SHOWN: Record<string, string> = { [NOT_FOUND_ROUTE]: 'ErrorPage' }

/** Start's route manifest, read from the server build it is compiled into. */
async function startManifest(dist: string): Promise<Record<string, ManifestRoute>> {
  const folder = join(dist, 'server', 'assets')
  const file = readdirSync(folder).find((name) => /^_tanstack-start-manifest_v-[\w-]+\.js$/.test(name))
  if (!file)
    throw new Error(`No Start manifest (_tanstack-start-manifest_v-*.js) in ${folder}: run npm run build first`)
  const module = await import(pathToFileURL(join(folder, file)).href)
  return module.tsrStartManifest().routes
}

/**
 * The route ids a path renders, root first: the route whose id is the path (or its index route),
 * and its parents; the root alone for the not-found page.
 */
function matchedRoutes(routes: Record<string, ManifestRoute>, path: string): string[] {
  const chain = ['__root__']
  if (path === NOT_FOUND_ROUTE) return chain
  const id = [path, `${path}/`].find((candidate) => candidate in routes)
  if (!id) throw new Error(`No route for ${path} in Start's manifest`)
  const parentOf = (child: string) =>
    Object.keys(routes).find((parent) => routes[parent]?.children?.includes(child)) ?? '__root__'
  const below: string[] = []
  for (let at = id; at !== '__root__'; at = parentOf(at)) below.unshift(at)
  return [...chain, ...below]
}

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g

/**
 * What the browser loads before a page is interactive, as `/assets/…` paths: the client entry
 * and the chunks of the routes it renders (what Start's head tags preload, and the page's loader
 * adds at the first paint: app/document/paint-first.tsx), every chunk those import statically,
 * and a chunk the page imports while it hydrates (LOADED_WHEN_SHOWN). `npm run bench` checks this
 * list against the scripts Lighthouse saw each page load.
 */
export async function firstLoadModel(dist = 'dist'): Promise<(route: string) => string[]> {
  const routes = await startManifest(dist)
  const assets = join(dist, 'client', 'assets')
  const files = readdirSync(assets)
  const importsOf = (path: string): string[] =>
    [...readFileSync(join(dist, 'client', path), 'utf8').matchAll(STATIC_IMPORT)].map((match) => `/assets/${match[1]}`)
  return (route) => {
    const start: string[] = []
    for (const id of matchedRoutes(routes, route)) {
      const entry = routes[id]
      for (const script of entry?.scripts ?? []) if (typeof script.attrs?.src === 'string') start.push(script.attrs.src)
      start.push(...(entry?.preloads ?? []))
    }
    const shown = LOADED_WHEN_SHOWN[route]
    if (shown) {
      const chunk = files.find((name) => name.startsWith(`${shown}-`) && name.endsWith('.js'))
      if (!chunk) throw new Error(`No ${shown}-*.js in ${assets}: the chunk ${route} loads when it is shown`)
      start.push(`/assets/${chunk}`)
    }
    const loaded = new Set<string>()
    const visit = (path: string) => {
      if (loaded.has(path)) return
      loaded.add(path)
      for (const imported of importsOf(path)) visit(imported)
    }
    for (const path of start) visit(path)
    return [...loaded].sort()
  }
}

export interface PageSize {
  route: string
  scripts: string[]
  kb: number
}

/** Each route's first-load JavaScript, read from a build. */
export async function firstLoadSizes(dist = 'dist', routes: readonly string[] = ROUTES): Promise<PageSize[]> {
  const scriptsFor = await firstLoadModel(dist)
  return routes.map((route) => {
    const scripts = scriptsFor(route)
    const bodies = scripts.map((path) => ({ path, body: readFileSync(join(dist, 'client', path)) }))
    return { route, scripts, kb: scriptsKB(bodies) }
  })
}
