/**
 * Where the page's HTML gets its symbols.
 *
 * Icons, the logo's mark and the illustrations above the fold are drawn with `<use href="#…">`, a
 * reference within the page (`<Icon>`, `<Logo>`, `<Picture priority>`): they paint with the page,
 * and cost no request and no drawing in any script. Once a page is rendered, the renderer
 * (render-page.server.tsx) passes its HTML through `withPageSymbols`, which
 *
 * 1. scans it once for the ids it draws (`symbolsDrawnBy`: every `href="#…"`),
 * 2. looks each up in one registry of every symbol a page can draw (`pageSymbols`):
 *    - the icons: each `<symbol id="icon-…">` of the sprite file icons.svg (`npm run icons` writes
 *      it from lucide's drawings and `ICON_NAMES`);
 *    - the brand mark: the favicon's drawing (brand-mark.ts);
 *    - the illustrations: each SVG file in public/images, as a `<symbol id="illustration-…">`;
 * 3. splices the symbols it found into the HTML once, just before `</body>`, one hidden `<svg>`
 *    for each kind (icons, mark, illustrations, in that order), and none for a kind the page does
 *    not draw.
 *
 * The page is rendered in full before it is sent, so holding its text until the end costs
 * nothing. The browser's half (the ids, and the icons completed for in-site navigations) is
 * page-symbols.ts.
 */
import { ICON_ID_PREFIX } from '~/content/types'
import { BRAND_MARK_ID, brandMarkGradient, brandMarkShapes } from './brand-mark'
import ICON_SPRITE from './icons.svg?raw'
import { ICON_SPRITE_ID, illustrationSymbolId } from './page-symbols'

/** The illustrations' SVG files (public/images), by their path on the site: `/images/…`. */
const ILLUSTRATIONS = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('../../public/images/**/*.svg', { query: '?raw', import: 'default', eager: true }),
  ).map(([file, svg]) => [file.slice(file.indexOf('/images/')), svg]),
)

const SVG = 'xmlns="http://www.w3.org/2000/svg"'

/** One kind of symbol: the hidden `<svg>` that holds those a page draws. */
interface SymbolKind {
  holder(symbols: string): string
}

const ICONS: SymbolKind = {
  holder: (symbols) => `<svg id="${ICON_SPRITE_ID}" ${SVG} aria-hidden="true" display="none">${symbols}</svg>`,
}

const BRAND_GRADIENT_ID = `${BRAND_MARK_ID}-gradient`

/**
 * The mark's holder is 0 × 0 rather than `display="none"`: browsers do not paint a gradient defined
 * inside an element that is not displayed, and the mark's gradient sits outside its symbol.
 */
const MARK: SymbolKind = {
  holder: (symbols) =>
    `<svg ${SVG} width="0" height="0" aria-hidden="true" focusable="false"><defs>${brandMarkGradient(BRAND_GRADIENT_ID)}</defs>${symbols}</svg>`,
}

/**
 * Not displayed: each drawing's gradients and patterns are inside its symbol, so every `<use>` of
 * it carries them along.
 */
const ILLUSTRATION: SymbolKind = {
  holder: (symbols) => `<svg ${SVG} aria-hidden="true" display="none">${symbols}</svg>`,
}

/** The kinds, in the order their holders are written. */
const KINDS = [ICONS, MARK, ILLUSTRATION] as const

/** A symbol of the registry: its kind, and its markup (made when a page first draws it). */
interface Entry {
  kind: SymbolKind
  markup: () => string
}

export type SymbolRegistry = ReadonlyMap<string, Entry>

/**
 * The registry of every symbol a page can draw, by id, from the sprite file's text and the
 * illustrations' files (path under public/ → text). An id two symbols share is refused.
 */
export function symbolRegistry(sprite: string, illustrations: Record<string, string>): SymbolRegistry {
  const registry = new Map<string, Entry>()
  const add = (id: string, kind: SymbolKind, markup: () => string) => {
    if (registry.has(id)) throw new Error(`Two page symbols have the id "${id}"`)
    registry.set(id, { kind, markup })
  }
  for (const match of sprite.matchAll(new RegExp(`<symbol id="(${ICON_ID_PREFIX}[a-z0-9-]+)"[^>]*>.*?</symbol>`, 'g')))
    add(match[1] as string, ICONS, () => match[0])
  add(
    BRAND_MARK_ID,
    MARK,
    () => `<symbol id="${BRAND_MARK_ID}" viewBox="0 0 40 40">${brandMarkShapes(BRAND_GRADIENT_ID)}</symbol>`,
  )
  for (const [src, svg] of Object.entries(illustrations)) {
    const id = illustrationSymbolId(src)
    add(id, ILLUSTRATION, () => illustrationSymbol(svg, id))
  }
  return registry
}

let registry: SymbolRegistry | undefined

/** The site's registry: the icon sprite, the brand mark, the illustrations in public/images. */
export function pageSymbols(): SymbolRegistry {
  registry ??= symbolRegistry(ICON_SPRITE, ILLUSTRATIONS)
  return registry
}

const DRAWN = /\bhref="#([^"]+)"/g

/** The scan: the ids a page's HTML draws from (`href="#…"`), each once. Ids the registry lacks are skipped later. */
export function symbolsDrawnBy(html: string): Set<string> {
  return new Set([...html.matchAll(DRAWN)].map((match) => match[1] as string))
}

/**
 * The splice: the page's HTML with the symbols it draws before its last `</body>`, each kind in
 * its own holder; the HTML as it is when it draws none or has no `</body>`.
 */
export function withPageSymbols(html: string, symbols: SymbolRegistry = pageSymbols()): string {
  const drawn = symbolsDrawnBy(html)
  const found = new Map<SymbolKind, string[]>()
  for (const [id, { kind, markup }] of symbols) {
    if (drawn.has(id)) found.set(kind, [...(found.get(kind) ?? []), markup()])
  }
  const end = html.lastIndexOf('</body>')
  if (found.size === 0 || end === -1) return html
  const holders = KINDS.filter((kind) => found.has(kind)).map((kind) => kind.holder(found.get(kind)?.join('') ?? ''))
  return `${html.slice(0, end)}${holders.join('')}${html.slice(end)}`
}

/**
 * An illustration's SVG file as a `<symbol id>` with its viewBox. The ids inside it (gradients,
 * patterns) are prefixed with the symbol's id, so two illustrations on one page cannot take each
 * other's; its `<title>` is left out, because the `<svg role="img">` that draws it is named by its
 * own `aria-label`. `tests/unit/illustration-symbols.test.ts` checks that every file in
 * public/images makes a whole symbol.
 */
export function illustrationSymbol(svg: string, id: string): string {
  const open = svg.match(/<svg\b[^>]*>/)
  const viewBox = open?.[0].match(/\bviewBox="([^"]+)"/)?.[1]
  const close = svg.lastIndexOf('</svg>')
  if (!open || open.index === undefined || !viewBox || close === -1) throw new Error(`${id}: not an SVG with a viewBox`)
  const body = svg
    .slice(open.index + open[0].length, close)
    .replace(/<title\b[^>]*>[\s\S]*?<\/title>/g, '')
    .replace(/\bid="([^"]+)"/g, `id="${id}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${id}-$1)`)
    .replace(/\bhref="#([^"]+)"/g, `href="#${id}-$1"`)
    .replace(/\n+/g, '')
  return `<symbol id="${id}" viewBox="${viewBox}">${body}</symbol>`
}
