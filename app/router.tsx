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

/**
 * Search params as the address bar and a GET form have them: every value a string. The router's
 * default reads them as JSON, so a value that looks like a number (a receipt link's `until=`, a
 * search for `12345678`) read back as a number, which the routes' search checks turn into a string
 * again, which the default then writes in quotes (`until=%221764…%22`): the server answered the
 * link as sent with a 307 to that form, and the browser's address changed as the page hydrated.
 * Every route's `validateSearch` reads strings (and `Number()`s a page), so plain params lose nothing.
 */
export function parseSearch(searchStr: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(searchStr))
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search))
    if (value !== undefined && value !== null) params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

export function getRouter() {
  // Scroll restoration is the router's for the pages it renders itself: it opens a page a link led
  // to at its top, and one that Back led to where the visitor left it. The page the browser loaded
  // is the browser's: the visitor may have scrolled it, or pressed something on it, while its code
  // was on the way, and the router would scroll it to the top once it hydrated (its first
  // `onRendered`), under the visitor's pointer. So the router restores only once a navigation of
  // its own has changed the path; a change of the same page's search or hash is no such
  // navigation. On the server the option stays on, so the page still carries the router's inline
  // script, which puts a page reloaded from an entry the router made where the visitor left it.
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
