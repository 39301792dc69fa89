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
  // Scroll restoration only after the router's own navigation: the loaded page's scroll is the visitor's.
  // On the server it stays on, so a reloaded entry's position is restored by the router's inline script.
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
