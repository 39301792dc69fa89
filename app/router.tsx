import { createRouter } from '@tanstack/react-router'
import { getGlobalStartContext } from '@tanstack/react-start'
import { LazyErrorPage, LazyNotFound } from './components/lazy-pages'
import './document/preload-recovery'
import { parseSearch, stringifySearch } from './lib/search-params'
import { routeTree } from './routeTree.gen'

/** The CSP nonce of the request being rendered (server only; the browser needs none). */
function requestNonce(): string | undefined {
  try {
    return getGlobalStartContext()?.nonce
  } catch {
    return undefined
  }
}

export function getRouter() {
  // Scroll restoration only once the router's own navigation changed the path (not just search or
  // hash): the loaded page is the browser's (the visitor may have scrolled it while its code was on
  // the way), and the router would scroll it to the top on hydration. On the server the option stays
  // on, so the page carries the router's inline script that restores a reloaded entry's position.
  let navigated = false
  const router = createRouter({
    ssr: { nonce: requestNonce() },
    routeTree,
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    parseSearch,
    stringifySearch,
    scrollRestoration: (): boolean => router.isServer || navigated,
    defaultErrorComponent: LazyErrorPage,
    defaultNotFoundComponent: LazyNotFound,
  })
  if (!router.isServer)
    router.subscribe('onBeforeNavigate', (event) => {
      if (event.pathChanged) navigated = true
    })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}
