/**
 * After a deploy, a page opened before it may ask for a script chunk that no longer exists (each
 * build names its chunks by content hash). Vite's loader then fires `vite:preloadError` on window.
 * The page is reloaded once, which fetches the current HTML with the current chunk names. If the
 * chunk still fails within a minute of that reload, the error is left to the error page rather
 * than reloading again, so a missing file can never put the page in a reload loop.
 * https://vite.dev/guide/build#load-error-handling
 *
 * TanStack Router's lazy route components have a reload-once of their own for the same failure,
 * keyed `tanstack_router_reload:<error message>` in sessionStorage. Setting that key when this
 * handler reloads makes the two count as one: after the reload, neither reloads again.
 */
const KEY = 'preload-recovery:reloaded-at'
const WINDOW_MS = 60_000

export function installPreloadRecovery(win: Window): void {
  win.addEventListener('vite:preloadError', (event) => {
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
      if (typeof message === 'string') win.sessionStorage.setItem(`tanstack_router_reload:${message}`, '1')
    } catch {
      return
    }
    event.preventDefault()
    win.location.reload()
  })
}

if (typeof window !== 'undefined') installPreloadRecovery(window)
