// @vitest-environment node
import { createRootRoute, createRoute, createRouter, type ErrorComponentProps, Outlet } from '@tanstack/react-router'
import { Suspense } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorPages } from '~/content/error-pages'
import { createPageRenderer } from '~/document/render-page.server'
import { SsrDocument, ssrGet } from '../support/ssr-document'

// The page renderer with a real router and React's server renderer, on a small route tree.
let layoutThrows = false

/** A component whose code arrives after the render started (it suspends once, then is there). */
let lateCode: Promise<void> | null = null
let lateCodeLoaded = false
function LateCode() {
  if (!lateCodeLoaded) {
    lateCode ??= new Promise<void>((resolve) => setTimeout(resolve, 1)).then(() => {
      lateCodeLoaded = true
    })
    throw lateCode
  }
  return <p>Arrived late, shown anyway</p>
}

function Broken(): never {
  throw new Error('content module is missing a field')
}

function RouteError(_: ErrorComponentProps) {
  return <h1>Designed error page</h1>
}

function makeRouter() {
  const root = createRootRoute({
    component: () => {
      if (layoutThrows) throw new Error('header failed')
      return (
        <SsrDocument>
          <header>Site header</header>
          <main>
            <Outlet />
          </main>
        </SsrDocument>
      )
    },
  })
  const home = createRoute({ getParentRoute: () => root, path: '/', component: () => <h1>Welcome home</h1> })
  const broken = createRoute({ getParentRoute: () => root, path: '/broken', component: Broken })
  const late = createRoute({
    getParentRoute: () => root,
    path: '/late',
    component: () => (
      <Suspense fallback={<p>Loading…</p>}>
        <LateCode />
      </Suspense>
    ),
  })
  return createRouter({
    routeTree: root.addChildren([home, broken, late]),
    defaultErrorComponent: RouteError,
    isServer: true,
  })
}

const renderer = createPageRenderer({ stylesheet: '/assets/app-abc123.css', siteName: 'Akshara Labs' })
const get = (path: string) => ssrGet(makeRouter, renderer, path)

describe('page renderer', () => {
  afterEach(() => {
    layoutThrows = false
    lateCode = null
    lateCodeLoaded = false
  })

  it('renders a working page with status 200, in full', async () => {
    const { status, html } = await get('/')
    expect(status).toBe(200)
    expect(html).toContain('<h1>Welcome home</h1>')
    expect(html).toContain('Site header')
    expect(html.match(/self\.\$_TSR=/g)).toHaveLength(1)
  })

  it('waits for a part that suspends while rendering: the page arrives whole, not with a loading fallback', async () => {
    const { status, html } = await get('/late')
    expect(status).toBe(200)
    expect(html).toContain('<p>Arrived late, shown anyway</p>')
    expect(html).not.toContain('Loading…')
    expect(html).not.toContain('<!--$!-->')
    expect(html.match(/self\.\$_TSR=/g)).toHaveLength(1)
  })

  it('answers 500 with the designed error page inside the layout when a page throws while rendering', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { status, html } = await get('/broken')
    expect(status).toBe(500)
    expect(html).toContain('Site header')
    expect(html).toContain('<h1>Designed error page</h1>')
    // Readable without JavaScript (not React's client-render fallback), and it can still hydrate.
    expect(html).not.toContain('<!--$!-->')
    expect(html.match(/self\.\$_TSR=/g)).toHaveLength(1)
    const lines = errors.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('render_error'))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 'error',
      event: 'render_error',
      path: '/broken',
      cause: 'content module is missing a field',
    })
  })

  it('answers 500 with a plain error document when the layout itself throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    layoutThrows = true
    const { status, html } = await get('/')
    expect(status).toBe(500)
    expect(html).toContain('Something went wrong on our side')
    expect(html).toContain(`<title>${errorPages.error.title} | Akshara Labs</title>`)
    expect(html).toContain(errorPages.error.body)
    expect(html).toContain('<link rel="stylesheet" href="/assets/app-abc123.css">')
    expect(html).toContain('<a href="/"')
    expect(html).toContain('<a href="/contact"')
    expect(html).not.toContain('header failed')
  })
})
