/**
 * Inter without a request before the first paint.
 *
 * The first paint uses "Inter Fallback" (a local Arial scaled to Inter's metrics, app.css). Once the
 * page has hydrated (after its first paint), the browser is asked to load Inter; the page in front
 * of the visitor keeps its fallback (no swap, so no layout shift), and a flag in sessionStorage
 * says the file is now in the HTTP cache. On every later page a one-line script in the head sets
 * `data-fonts="inter"` on <html> before anything is painted, and app.css then puts Inter first in
 * the font stack (`font-display: optional`: if the cache lost the file, the fallback stays).
 * Without JavaScript, or with storage blocked, the visitor gets the metric-matched fallback.
 * sessionStorage, not localStorage: the HTTP cache can be cleared or evicted while localStorage
 * stays (Lighthouse clears the cache between runs and keeps localStorage, and then measured the
 * font charged to the first paint); a tab's session is a much safer sign that the file is cached.
 */
export const FONT_FLAG_KEY = 'fonts'
export const FONT_FAMILY = 'Inter Variable'

export const FONT_FLAG_SCRIPT = `try{if(sessionStorage.getItem('${FONT_FLAG_KEY}')==='inter')document.documentElement.dataset.fonts='inter'}catch(e){}`

export function loadInterForNextPages(): void {
  if (typeof document === 'undefined' || !document.fonts) return
  document.fonts.load(`1em "${FONT_FAMILY}"`).then(
    (faces) => {
      if (faces.length === 0) return
      try {
        sessionStorage.setItem(FONT_FLAG_KEY, 'inter')
      } catch {
        // Storage blocked: every page keeps the fallback.
      }
    },
    () => {},
  )
}
