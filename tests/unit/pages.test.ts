// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { footerLinks, mainNav, metaFor, pages } from '~/content/pages'
import { sitemapXml } from '~/routes/sitemap[.]xml'
import { site } from '~/site'

const ROUTES_DIR = join(process.cwd(), 'app/routes')

/** Each route file under app/routes with the path it declares (`createFileRoute('…')`). */
function routeFiles(): { file: string; path: string; source: string }[] {
  return readdirSync(ROUTES_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('__root'))
    .flatMap((file) => {
      const source = readFileSync(join(ROUTES_DIR, file), 'utf8')
      const declared = source.match(/createFileRoute\('([^']+)'\)/)?.[1]
      return declared ? [{ file, path: declared, source }] : []
    })
}

/** A route that renders a page (a component), not only server handlers; `/services/` is served at `/services`. */
function pageRoutes() {
  return routeFiles()
    .filter(({ source }) => /\bcomponent:/.test(source))
    .map((route) => ({ ...route, path: route.path === '/' ? '/' : route.path.replace(/\/$/, '') }))
}

// The desk, and the pages a notice's link leads to: withdraw, confirm and leave (noindex, not in the sitemap).
const isPrivate = (path: string) =>
  path === '/admin' || path.startsWith('/admin/') || path === '/withdraw' || path.startsWith('/early-access/')

describe('the page list (app/content/pages.ts)', () => {
  it('has one entry for every public page route in app/routes, and no entry without one', () => {
    const routed = pageRoutes()
      .map((r) => r.path)
      .filter((path) => !isPrivate(path))
    const listed = pages.map((page) => page.path)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual([...routed].sort())
  })

  it('matches the generated route tree, so no route file is left out of the router', () => {
    const tree = readFileSync(join(process.cwd(), 'app/routeTree.gen.ts'), 'utf8')
    const byFullPath = tree.match(/export interface FileRoutesByFullPath \{([^}]*)\}/)?.[1] ?? ''
    const treePaths = [...byFullPath.matchAll(/'([^']+)': typeof/g)].map((m) => m[1])
    expect([...treePaths].sort()).toEqual(
      routeFiles()
        .map((r) => r.path)
        .sort(),
    )
  })

  it('gives each page a head: its path, and the title and description the list holds', () => {
    for (const page of pages) {
      const meta = metaFor(page.path)
      expect(meta.path).toBe(page.path)
      expect(meta.description).toBe(page.description)
      expect(meta.title).toBe('title' in page ? page.title : undefined)
    }
    expect(metaFor('/').title).toBeUndefined()
  })

  it('is what the sitemap lists, at canonical URLs, home first', () => {
    const locs = [...sitemapXml().matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    expect(locs).toEqual(pages.map(({ path }) => new URL(path, `${site.url}/`).toString()))
    expect(locs[0]).toBe(`${site.url}/`)
  })
})

describe('the header and the footer, from the page list (spec: Global layout)', () => {
  const links = (column: Parameters<typeof footerLinks>[0]) =>
    footerLinks(column).map(({ label, to }) => `${label} ${to}`)

  it('the header links each page with a `nav` label, in the list’s order', () => {
    expect(mainNav.map(({ label, to }) => `${label} ${to}`)).toEqual([
      'Home /',
      'Services /services',
      'Products /products',
      'About /about',
      'Contact /contact',
    ])
  })

  it('each footer column holds the pages placed in it, in their places, beside its own links', () => {
    expect(links('company')).toEqual(['About /about', 'Services /services', 'Products /products'])
    expect(footerLinks('resources').map(({ label, at }) => `${at} ${label}`)).toEqual(['2 Privacy Policy', '3 Support'])
    expect(links('connect')).toEqual(['Contact /contact'])
    expect(links('legal')).toEqual(['Privacy Policy /privacy', 'Terms of Service /terms'])
  })
})
