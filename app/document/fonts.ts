/**
 * Inter without a request before the first paint, and without restyling the page in front of the
 * visitor. The first paint uses "Inter Fallback" (Arial scaled to Inter's metrics, app.css). After
 * hydration the file is fetched into the HTTP cache at low priority as a plain file, so this page
 * keeps its fallback (a web font that finishes loading makes Chrome restyle and lay out the whole
 * page again, a long task on a phone). A sessionStorage flag then has a head script set
 * `data-fonts="inter"` on later pages before their first paint (`font-display: optional`: a lost
 * file leaves the fallback). sessionStorage, not localStorage: the cache can be evicted while
 * localStorage stays (Lighthouse clears the cache and keeps localStorage, and then measured the
 * font charged to the first paint).
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
