// @vitest-environment node

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AnyRouter, createRootRoute, createRoute, createRouter, useRouter } from '@tanstack/react-router'
import { defaultRenderHandler } from '@tanstack/react-router/ssr/server'
import { describe, expect, it } from 'vitest'
import {
  composeSsrBodyScripts,
  getSsrBodyScriptParts,
  isNotFoundMatch,
  missingRouterInternals,
  renderedMatches,
  routerReloadKey,
} from '~/lib/router-internals'
import { missingServerRouterInternals } from '~/lib/router-internals.server'
import { SsrDocument, ssrGet } from '../support/ssr-document'

// The tripwire for app/lib/router-internals.ts: a real router, rendered on the server, still has every
// internal the adapter names; an upgrade that removes or renames one fails here, naming it.
let seen: { missing: string[]; matches: number; bodyScripts: number } | undefined

function Probe() {
  const router = useRouter() as AnyRouter
  const parts = getSsrBodyScriptParts(renderedMatches(router) ?? [], router.ssr?.manifest, undefined)
  seen = {
    missing: missingRouterInternals(router),
    matches: renderedMatches(router)?.length ?? -1,
    bodyScripts: Array.isArray(parts) && parts.length === 2 ? composeSsrBodyScripts(parts).length : -1,
  }
  return <h1>Home</h1>
}

function makeRouter() {
  const root = createRootRoute({
    head: ({ matches }) => ({ meta: [{ title: matches.some(isNotFoundMatch) ? 'Not found' : 'Found' }] }),
    component: SsrDocument,
    notFoundComponent: () => <h1>Nothing here</h1>,
  })
  const home = createRoute({ getParentRoute: () => root, path: '/', component: Probe })
  return createRouter({ routeTree: root.addChildren([home]), isServer: true })
}

const get = (path: string) => ssrGet(makeRouter, defaultRenderHandler, path)

describe('the router internals the adapter names', () => {
  it('are all there on a server render, with the rendered matches and body scripts readable', async () => {
    seen = undefined
    await get('/')
    const probe = seen as { missing: string[]; matches: number; bodyScripts: number } | undefined
    expect(probe?.missing, 'router internals an upgrade removed or renamed').toEqual([])
    expect(probe?.matches).toBeGreaterThan(0)
    expect(probe?.bodyScripts, "<Scripts>'s body scripts split and composed (paint-first)").toBeGreaterThanOrEqual(0)
  })

  it('tell a not-found match from a found one', async () => {
    expect((await get('/')).html).toContain('<title>Found</title>')
    const missing = await get('/no-such-page')
    expect(missing.html).toContain('<title>Not found</title>')
    expect(missing.html).toContain('Nothing here')
  })

  it("give the renderer the page's status and its stream response", () => {
    expect(missingServerRouterInternals(), 'router internals an upgrade removed or renamed').toEqual([])
  })

  it("still key the lazy route components' reload-once as preload-recovery sets it", () => {
    // The installed router's ES build, the one Vite bundles.
    const source = readFileSync(
      join(process.cwd(), 'node_modules/@tanstack/react-router/dist/esm/lazyRouteComponent.js'),
      'utf8',
    )
    expect(source, "the router's reload-once key prefix (routerReloadKey)").toContain(
      `${routerReloadKey('')}${'$'}{error.message}`,
    )
  })
})
