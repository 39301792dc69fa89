import { routerReloadKey } from '~/lib/router-internals'

/** After a deploy an open page may ask for a chunk that is gone: it reloads once, only when the server
 * answers 404 or 410 for it; other failures, and a visitor leaving (whose fetches are dropped), stay with the page. */
export const RELOADED_AT_KEY = 'preload-recovery:reloaded-at'
const WINDOW_MS = 60_000
/** How long after a navigation to another document began a failed chunk is put down to it. */
export const LEAVING_MS = 10_000

/** The part of the Navigation API read here (TypeScript's DOM types do not have it yet). */
interface NavigateEventLike extends Event {
  destination?: { sameDocument?: boolean }
}

/** The failed chunk's address when the browser's message names one on this site (WebKit's names none). */
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

/** `build`: the chunk asked for when the message names none; any deploy renames it (its hash covers its imports). */
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
      // The router's lazy routes would reload once per message by themselves: this handler decides for both.
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
