import { fetchLater } from './fetch-later'
import spriteUrl from './icons.svg?url&no-inline'

/** The browser's half of the page's symbols: in-site navigations need icons the landing page lacked, so
 * after hydration the cached sprite completes them (React 19 leaves the hidden `<svg>` alone). */
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
