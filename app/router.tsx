import { createRouter } from '@tanstack/react-router'
import { getGlobalStartContext } from '@tanstack/react-start'
import { LazyErrorPage, LazyNotFound } from './components/lazy-pages'
import './document/preload-recovery'
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
  return createRouter({
    ssr: { nonce: requestNonce() },
    routeTree,
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultErrorComponent: LazyErrorPage,
    defaultNotFoundComponent: LazyNotFound,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}
