import { routerReloadKey } from '~/lib/router-internals'

/**
 * After a deploy, a page opened before it may ask for a script chunk that no longer exists (each
 * build names its chunks by content hash). Vite's loader then fires `vite:preloadError` on window.
 * The page is reloaded once, which fetches the current HTML with the current chunk names. If the
 * chunk still fails within a minute of that reload, the error is left to the error page rather
 * than reloading again, so a missing file can never put the page in a reload loop.
 * https://vite.dev/guide/build#load-error-handling
 *
 * TanStack Router's lazy route components have a reload-once of their own for the same failure,
 * keyed `tanstack_router_reload:<error message>` in sessionStorage (`routerReloadKey`, in the adapter
 * for the router's internals). Setting that key when this
 * handler reloads makes the two count as one: after the reload, neither reloads again.
 *
 * No reload while the visitor is leaving the page. Once a navigation to another document has
 * begun (a plain link such as the footer's Documentation, a form post), Firefox and WebKit fail
 * the page's chunk fetches whose answers arrive before the next page does: on a slow network, the
 * motion code fetched on the first mouse move fails that way. A reload then cancels the visitor's
 * navigation and shows them again the page they were leaving (tests/engines/smoke.ts). That such a
 * navigation began is told by the Navigation API's `navigate` event where the browser has it
 * (Chromium, Firefox), else by `beforeunload` (WebKit, where it also covers an address typed in
 * the address bar). A `beforeunload` listener costs a page Firefox's back-forward cache, so it is
 * only added where the Navigation API is missing. A navigation the browser then drops (a download)
 * leaves the page where it was: a chunk failing in the next LEAVING_MS shows as any other failure
 * does, without the reload.
 */
const KEY = 'preload-recovery:reloaded-at'
const WINDOW_MS = 60_000
/** How long after a navigation to another document began a failed chunk is put down to it. */
export const LEAVING_MS = 10_000

/** The part of the Navigation API read here (TypeScript's DOM types do not have it yet). */
interface NavigateEventLike extends Event {
  destination?: { sameDocument?: boolean }
}

export function installPreloadRecovery(win: Window): void {
  let leavingAt = Number.NEGATIVE_INFINITY
  const leaving = () => {
    leavingAt = Date.now()
  }
  const navigation = (win as Window & { navigation?: EventTarget }).navigation
  if (navigation) {
    navigation.addEventListener('navigate', (event) => {
      if ((event as NavigateEventLike).destination?.sameDocument === false) leaving()
    })
  } else {
    win.addEventListener('beforeunload', leaving)
  }

  win.addEventListener('vite:preloadError', (event) => {
    // Leaving: the next page brings its own code.
    if (Date.now() - leavingAt < LEAVING_MS) return
    let last = 0
    try {
      last = Number(win.sessionStorage.getItem(KEY) ?? 0)
    } catch {
      return // no storage: cannot tell a first failure from a loop, so never reload
    }
    if (Date.now() - last < WINDOW_MS) return
    try {
      win.sessionStorage.setItem(KEY, String(Date.now()))
      const message = (event as Event & { payload?: { message?: unknown } }).payload?.message
      if (typeof message === 'string') win.sessionStorage.setItem(routerReloadKey(message), '1')
    } catch {
      return
    }
    event.preventDefault()
    win.location.reload()
  })
}

if (typeof window !== 'undefined') installPreloadRecovery(window)
