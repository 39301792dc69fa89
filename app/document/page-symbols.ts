import { fetchLater } from './fetch-later'
import spriteUrl from './icons.svg?url&no-inline'

/**
 * The page's symbols, the browser's half: the ids the components draw, and the icon symbols
 * completed after hydration. Where the HTML gets its symbols is the server's half,
 * `page-symbols.server.ts` (the registry, the scan, the splice); it is two files because that half
 * carries every drawing (the icon sprite's text, the illustrations' files), which no script the
 * browser loads may carry.
 *
 * Icons (`<Icon>`, id `icon-…`, `ICON_ID_PREFIX` in content/types.ts beside the icons' names), the
 * logo's mark (`<Logo>`, `BRAND_MARK_ID` in brand-mark.ts beside its drawing) and illustrations
 * above the fold (`<Picture priority>`, `illustrationSymbolId`) are drawn with `<use href="#…">`,
 * a reference within the page, so they paint with the page and cost no request.
 *
 * A page reached by an in-site navigation has only the symbols of the page the visitor landed on.
 * After hydration the browser fetches the whole icon sprite (a hashed asset, cached for good) and
 * adds the symbols the page lacks (`completeIconSymbols`), so later pages find theirs; React
 * leaves the hidden `<svg>` alone: it is not part of the tree it renders, and React 19 skips
 * elements it did not render at the end of the body when it hydrates. An illustration without its
 * symbol is drawn from its file (`<Picture>`).
 */
export const ICON_SPRITE_ID = 'icon-symbols'

const ILLUSTRATION_ID_PREFIX = 'illustration-'

/** The symbol's id for an illustration's file: `/images/services/devops.svg` → `illustration-devops`. */
export function illustrationSymbolId(src: string): string {
  const name = src.slice(src.lastIndexOf('/') + 1).replace(/\.svg$/, '')
  return `${ILLUSTRATION_ID_PREFIX}${name.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`
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
