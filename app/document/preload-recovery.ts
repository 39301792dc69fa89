import { routerReloadKey } from '~/lib/router-internals'

/**
 * After a deploy, an open page may ask for a chunk that no longer exists (names are content hashes)
 * and Vite fires `vite:preloadError` (https://vite.dev/guide/build#load-error-handling). The page
 * reloads once; a failure within a minute of that reload is left to the error page: no reload loop.
 * Setting the router's own reload-once key (`routerReloadKey`) makes the two count as one.
 *
 * No reload while the visitor is leaving: once a navigation to another document has begun, Firefox
 * and WebKit fail chunk fetches answered before the next page arrives (on a slow network, the motion
 * code fetched on the first mouse move), and a reload would cancel the navigation
 * (tests/engines/smoke.ts). Leaving is told by the Navigation API's `navigate` (Chromium, Firefox),
 * else by `beforeunload` (WebKit; it covers a typed address too), added only there because it costs
 * Firefox's back-forward cache. A dropped navigation (a download) leaves the page as it was: a chunk
 * failing within LEAVING_MS shows as any other failure, without the reload.
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
