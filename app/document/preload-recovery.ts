import { routerReloadKey } from '~/lib/router-internals'

/**
 * After a deploy, an open page may ask for a chunk that no longer exists (names are content hashes)
 * and Vite fires `vite:preloadError` (https://vite.dev/guide/build#load-error-handling). The page asks
 * the server for that chunk and reloads once when it answers 404 or 410; a failure within a minute of
 * that reload is left to the error page: no reload loop.
 *
 * Any other failure is left to the page (the motion code is tried again on a later mouse move, a
 * route's code shows the error page). The chunk is still there, so its fetch was dropped or the
 * network failed, and a reload could cost the visitor more than the failure. Above all, browsers
 * drop a page's fetches once the visitor leaves it for another document, Firefox as soon as the
 * navigation starts, and a reload then cancels the visitor's navigation (tests/engines/smoke.ts).
 * Leaving is told by the Navigation API's `navigate` (Chromium, Firefox), else by `beforeunload`
 * (added only there, as it costs Firefox its back-forward cache); neither tells of an address typed
 * in the address bar or a bookmark, which only the server's answer covers.
 *
 * The router's lazy route components reload by themselves on a failed chunk once per message
 * (`routerReloadKey`): the key is set on every failure, so this handler decides for both.
 */
/** When the page last reloaded itself (sessionStorage). */
export const RELOADED_AT_KEY = 'preload-recovery:reloaded-at'
const WINDOW_MS = 60_000
/** How long after a navigation to another document began a failed chunk is put down to it. */
export const LEAVING_MS = 10_000

/** The part of the Navigation API read here (TypeScript's DOM types do not have it yet). */
interface NavigateEventLike extends Event {
  destination?: { sameDocument?: boolean }
}

/**
 * The address of the chunk that failed, when the message names one on this site: Chromium's
 * "Failed to fetch dynamically imported module: <url>", Firefox's "error loading dynamically imported
 * module: <url>", Vite's "Unable to preload CSS for <url>". WebKit's names none.
 */
export function failedChunk(message: string, origin: string): string | undefined {
  const named = /https?:\/\/[^\s'"]+/.exec(message)?.[0]
  if (!named) return undefined
  try {
    const url = new URL(named)
    return url.origin === origin ? url.href : undefined
  } catch {
    return undefined
  }
}

/**
 * `build`: the chunk asked for when the message names none, this file's own. A deploy that changes
 * any chunk renames it too: its name is a hash of its content, which holds the names of the chunks
 * it imports.
 */
export function installPreloadRecovery(win: Window, build: string = import.meta.url): void {
  let leavingAt = Number.NEGATIVE_INFINITY
  const leaving = () => {
    leavingAt = Date.now()
  }
  const isLeaving = () => Date.now() - leavingAt < LEAVING_MS
  const navigation = (win as Window & { navigation?: EventTarget }).navigation
  if (navigation) {
    navigation.addEventListener('navigate', (event) => {
      if ((event as NavigateEventLike).destination?.sameDocument === false) leaving()
    })
  } else {
    win.addEventListener('beforeunload', leaving)
  }

  const gone = async (chunk: string) => {
    try {
      const answer = await win.fetch(chunk, { method: 'HEAD', cache: 'no-store' })
      return answer.status === 404 || answer.status === 410
    } catch {
      return false // no answer: the network, not a deploy
    }
  }

  win.addEventListener('vite:preloadError', (event) => {
    const message = (event as Event & { payload?: { message?: unknown } }).payload?.message
    const text = typeof message === 'string' ? message : ''
    let last = 0
    try {
      if (text) win.sessionStorage.setItem(routerReloadKey(text), '1')
      last = Number(win.sessionStorage.getItem(RELOADED_AT_KEY) ?? 0)
    } catch {
      return // no storage: cannot tell a first failure from a loop, so never reload
    }
    // Leaving: the next page brings its own code.
    if (isLeaving() || Date.now() - last < WINDOW_MS) return
    void gone(failedChunk(text, win.location.origin) ?? build).then((isGone) => {
      if (!isGone || isLeaving()) return
      try {
        win.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()))
      } catch {
        return
      }
      win.location.reload()
    })
  })
}

if (typeof window !== 'undefined') installPreloadRecovery(window)
