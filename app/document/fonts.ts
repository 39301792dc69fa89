/** Inter is fetched as a plain file after hydration, for later pages only: a web font arriving on this one
 * would restyle the whole page. A sessionStorage flag (it dies with the tab, as the cache may) turns it on. */
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
