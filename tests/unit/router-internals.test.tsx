// @vitest-environment node
import {
  type AnyRouter,
  createRootRoute,
  createRoute,
  createRouter,
  HeadContent,
  Outlet,
  Scripts,
  useRouter,
} from '@tanstack/react-router'
import { createRequestHandler, defaultRenderHandler } from '@tanstack/react-router/ssr/server'
import { describe, expect, it } from 'vitest'
import { isNotFoundMatch, missingRouterInternals, renderedMatches } from '~/lib/router-internals'

/**
 * The tripwire for `app/lib/router-internals.ts`: a real router, rendered on the server by the
 * installed TanStack Router, must still have every internal the adapter names. When an upgrade
 * removes or renames one, this fails and says which.
 */
let seen: { missing: string[]; matches: number } | undefined

function Probe() {
  const router = useRouter() as AnyRouter
  seen = { missing: missingRouterInternals(router), matches: renderedMatches(router)?.length ?? -1 }
  return <h1>Home</h1>
}

function makeRouter() {
  const root = createRootRoute({
    head: ({ matches }) => ({ meta: [{ title: matches.some(isNotFoundMatch) ? 'Not found' : 'Found' }] }),
    component: () => (
      <html lang="en">
        <head>
          <HeadContent />
        </head>
        <body>
          <Outlet />
          <Scripts />
        </body>
      </html>
    ),
    notFoundComponent: () => <h1>Nothing here</h1>,
  })
  const home = createRoute({ getParentRoute: () => root, path: '/', component: Probe })
  return createRouter({ routeTree: root.addChildren([home]), isServer: true })
}

async function get(path: string) {
  const handler = createRequestHandler({ createRouter: makeRouter, request: new Request(`http://localhost${path}`) })
  const response = await handler(defaultRenderHandler)
  return { status: response.status, html: await response.text() }
}

describe('the router internals the adapter names', () => {
  it('are all there on a server render, with the rendered matches readable', async () => {
    seen = undefined
    await get('/')
    const probe = seen as { missing: string[]; matches: number } | undefined
    expect(probe?.missing, 'router internals an upgrade removed or renamed').toEqual([])
    expect(probe?.matches).toBeGreaterThan(0)
  })

  it('tell a not-found match from a found one', async () => {
    expect((await get('/')).html).toContain('<title>Found</title>')
    const missing = await get('/no-such-page')
    expect(missing.html).toContain('<title>Not found</title>')
    expect(missing.html).toContain('Nothing here')
  })
})
