/**
 * Inter without a request before the first paint, and without re-styling the page in front of the
 * visitor.
 *
 * The first paint uses "Inter Fallback" (a local Arial scaled to Inter's metrics, app.css). Once the
 * page has hydrated (after its first paint), the font file is fetched into the HTTP cache at low
 * priority, as a plain file: the page in front of the visitor keeps its fallback, and the browser
 * does not treat it as a new font for this page (a web font that finishes loading makes Chrome
 * restyle and lay out the whole page again, a long task on a phone). A flag in sessionStorage then
 * says the file is in the cache. On every later page a one-line script in the head sets
 * `data-fonts="inter"` on <html> before anything is painted, and app.css then puts Inter first in
 * the font stack (`font-display: optional`: if the cache lost the file, the fallback stays).
 * Without JavaScript, or with storage blocked, the visitor gets the metric-matched fallback.
 * sessionStorage, not localStorage: the HTTP cache can be cleared or evicted while localStorage
 * stays (Lighthouse clears the cache between runs and keeps localStorage, and then measured the
 * font charged to the first paint); a tab's session is a much safer sign that the file is cached.
 */
// The file app.css's @font-face names: the same asset, so the same URL and the same cache entry.
import interUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url'
import { fetchLater } from './fetch-later'

export const FONT_FLAG_KEY = 'fonts'

export const FONT_FLAG_SCRIPT = `try{if(sessionStorage.getItem('${FONT_FLAG_KEY}')==='inter')document.documentElement.dataset.fonts='inter'}catch(e){}`

export function loadInterForNextPages(): void {
  if (typeof fetch === 'undefined' || typeof sessionStorage === 'undefined') return
  fetchLater(interUrl)
    .then((response) => response.arrayBuffer())
    .then(
      () => {
        try {
          sessionStorage.setItem(FONT_FLAG_KEY, 'inter')
        } catch {
          // Storage blocked: every page keeps the fallback.
        }
      },
      () => {},
    )
}
