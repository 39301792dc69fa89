import { fetchLater } from './fetch-later'
import spriteUrl from './icons.svg?url&no-inline'

/**
 * The browser's half of the page's symbols; page-symbols.server.ts holds the drawings, which no
 * script the browser loads may carry. A page reached by an in-site navigation has only the landing
 * page's symbols, so after hydration the whole icon sprite (hashed, cached for good) is fetched and
 * the missing ones added (`completeIconSymbols`). React leaves that hidden `<svg>` alone: React 19
 * skips elements it did not render at the end of the body when it hydrates. An illustration
 * without its symbol is drawn from its file (`<Picture>`).
 */
export const ICON_SPRITE_ID = 'icon-symbols'

const ILLUSTRATION_ID_PREFIX = 'illustration-'

/** The symbol's id for an illustration's file: `/images/services/devops.svg` → `illustration-devops`. */
export function illustrationSymbolId(src: string): string {
  const name = src.slice(src.lastIndexOf('/') + 1).replace(/\.svg$/, '')
  return `${ILLUSTRATION_ID_PREFIX}${name.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`
}

let completing: Promise<void> | undefined

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

function newHolder(): SVGSVGElement {
  const holder = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
  holder.id = ICON_SPRITE_ID
  holder.setAttribute('aria-hidden', 'true')
  holder.setAttribute('display', 'none')
  document.body.appendChild(holder)
  return holder
}
