import { ICON_ID_PREFIX } from '~/content/types'
import { beforeBodyEnd } from './before-body-end'
import { fetchLater } from './fetch-later'
import spriteUrl from './icons.svg?url&no-inline'

/**
 * How pages get their icons without any icon's drawing in a script.
 *
 * Every icon is a `<symbol id="icon-…">` in one sprite file, `icons.svg` (`npm run icons` writes it
 * from lucide's drawings), and `<Icon>` draws `<svg><use href="#icon-…"/></svg>`, a reference
 * within the page. The server puts the symbols a page uses into its HTML, in one hidden `<svg>` at
 * the end of the body (`withIconSymbols`), so the icons paint with the page and cost no request.
 * After hydration the browser fetches the whole sprite (a hashed asset, cached for good) and adds
 * the symbols the page lacks (`completeIconSymbols`), so pages reached by an in-site navigation
 * find theirs. React leaves the hidden `<svg>` alone: it is not part of the tree it renders, and
 * React 19 skips elements it did not render at the end of the body when it hydrates.
 */
export const ICON_SPRITE_ID = 'icon-symbols'

const SYMBOL = new RegExp(`<symbol id="${ICON_ID_PREFIX}([a-z0-9-]+)"[^>]*>.*?</symbol>`, 'g')
const USED = new RegExp(`href="#${ICON_ID_PREFIX}([a-z0-9-]+)"`, 'g')

/** The page's HTML with the symbols it uses (from `sprite`, the sprite file's text) before `</body>`. */
export function withIconSymbols(html: string, sprite: string): string {
  const used = new Set([...html.matchAll(USED)].map((match) => match[1]))
  if (used.size === 0) return html
  const symbols = [...sprite.matchAll(SYMBOL)].filter((match) => used.has(match[1])).map((match) => match[0])
  return beforeBodyEnd(
    html,
    `<svg id="${ICON_SPRITE_ID}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" display="none">${symbols.join('')}</svg>`,
  )
}

let completing: Promise<void> | undefined

/** In the browser, once: adds every symbol of the sprite file that the page does not have yet. */
export function completeIconSymbols(): Promise<void> {
  completing ??= fetchLater(spriteUrl)
    .then((response) => response.text())
    .then((text) => {
      const sprite = new DOMParser().parseFromString(text, 'image/svg+xml')
      const holder = document.getElementById(ICON_SPRITE_ID) ?? newHolder()
      for (const symbol of sprite.querySelectorAll('symbol')) {
        if (!document.getElementById(symbol.id)) holder.appendChild(document.importNode(symbol, true))
      }
    })
    .catch(() => {
      // Offline, or a deploy removed the file: icons on later pages stay empty (they are decoration).
      completing = undefined
    })
  return completing
}

/** The hidden `<svg>` for the symbols, on a page that had no icons of its own. */
function newHolder(): SVGSVGElement {
  const holder = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
  holder.id = ICON_SPRITE_ID
  holder.setAttribute('aria-hidden', 'true')
  holder.setAttribute('display', 'none')
  document.body.appendChild(holder)
  return holder
}
