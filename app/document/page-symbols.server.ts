/** Icons, the mark and above-the-fold illustrations are `<use href="#…">`, so they paint with the page,
 * no request, no script: the symbols a page draws are spliced before `</body>`. */
import { ICON_ID_PREFIX } from '~/content/types'
import { BRAND_MARK_ID, brandMarkGradient, brandMarkShapes } from './brand-mark'
import ICON_SPRITE from './icons.svg?raw'
import { ICON_SPRITE_ID, illustrationSymbolId } from './page-symbols'

const ILLUSTRATIONS = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('../../public/images/**/*.svg', { query: '?raw', import: 'default', eager: true }),
  ).map(([file, svg]) => [file.slice(file.indexOf('/images/')), svg]),
)

const SVG = 'xmlns="http://www.w3.org/2000/svg"'

interface SymbolKind {
  holder(symbols: string): string
}

const ICONS: SymbolKind = {
  holder: (symbols) => `<svg id="${ICON_SPRITE_ID}" ${SVG} aria-hidden="true" display="none">${symbols}</svg>`,
}

const BRAND_GRADIENT_ID = `${BRAND_MARK_ID}-gradient`

/** 0 × 0, not `display="none"`: browsers do not paint a gradient defined inside an element not displayed. */
const MARK: SymbolKind = {
  holder: (symbols) =>
    `<svg ${SVG} width="0" height="0" aria-hidden="true" focusable="false"><defs>${brandMarkGradient(BRAND_GRADIENT_ID)}</defs>${symbols}</svg>`,
}

/** 0 × 0 like the mark's, for the same reason (tests/e2e/illustrations.spec.ts compares the pixels). */
const ILLUSTRATION: SymbolKind = {
  holder: (symbols) => `<svg ${SVG} width="0" height="0" aria-hidden="true" focusable="false">${symbols}</svg>`,
}

/** The kinds, in the order their holders are written. */
const KINDS = [ICONS, MARK, ILLUSTRATION] as const

interface Entry {
  kind: SymbolKind
  markup: () => string
}

export type SymbolRegistry = ReadonlyMap<string, Entry>

/** An id two symbols share is refused. */
export function symbolRegistry(sprite: string, illustrations: Record<string, string>): SymbolRegistry {
  const registry = new Map<string, Entry>()
  const add = (id: string, kind: SymbolKind, make: () => string) => {
    if (registry.has(id)) throw new Error(`Two page symbols have the id "${id}"`)
    // Made on a page's first use, then kept: the same text for every page that draws it.
    let made: string | undefined
    registry.set(id, { kind, markup: () => (made ??= make()) })
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

export function pageSymbols(): SymbolRegistry {
  registry ??= symbolRegistry(ICON_SPRITE, ILLUSTRATIONS)
  return registry
}

const HREF = 'href="#'
const WORD_CHARACTER = /\w/

/** Every `href="#…"` that starts a word, found with indexOf: a regular expression starting with `\b`
 * would try every position of the page. */
export function symbolsDrawnBy(html: string): Set<string> {
  const drawn = new Set<string>()
  for (let at = html.indexOf(HREF); at !== -1; at = html.indexOf(HREF, at + HREF.length)) {
    if (at > 0 && WORD_CHARACTER.test(html.charAt(at - 1))) continue
    const start = at + HREF.length
    const end = html.indexOf('"', start)
    if (end === -1) break
    if (end > start) drawn.add(html.slice(start, end))
  }
  return drawn
}

/** The HTML unchanged when it draws none or has no `</body>`. */
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

/** Inner ids take the symbol's as prefix so two drawings cannot clash; `<title>` goes (the `aria-label` names it). */
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
