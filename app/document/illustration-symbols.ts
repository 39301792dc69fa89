/**
 * How an illustration above the fold paints with the page and costs no request.
 *
 * The server puts the drawing of each illustration the page draws (the SVG files in
 * public/images) into its HTML as a `<symbol>`, and <Picture priority> draws
 * `<svg role="img"><use href="#illustration-…"/></svg>`, a reference within the page, as the logo
 * does. An image request before the first paint is charged to the page's first paint and LCP
 * over a slow network; the drawing in the page (≈ 1.2 KB of gzipped HTML for a service's) is not a
 * request at all. `tests/unit/illustration-symbols.test.ts` checks that every file in
 * public/images makes a whole symbol.
 * Illustrations further down stay `<img loading="lazy">`, and a page reached by an in-site
 * navigation, which has no such symbol, draws the file with `<img>` as before.
 */
import { beforeBodyEnd } from './before-body-end'

export const ILLUSTRATION_ID_PREFIX = 'illustration-'

/** The symbol's id for an illustration's file: `/images/services/devops.svg` → `illustration-devops`. */
export function illustrationSymbolId(src: string): string {
  const name = src.slice(src.lastIndexOf('/') + 1).replace(/\.svg$/, '')
  return `${ILLUSTRATION_ID_PREFIX}${name.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`
}

/**
 * An SVG file's drawing as a `<symbol id>` with its viewBox. The ids inside it (gradients,
 * patterns) are prefixed with the symbol's id, so two illustrations on one page cannot take each
 * other's; its `<title>` is left out, because the `<svg role="img">` that draws it is named by
 * its own `aria-label`.
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

const USED = new RegExp(`href="#(${ILLUSTRATION_ID_PREFIX}[a-z0-9-]+)"`, 'g')

/**
 * The page's HTML with the symbols of the illustrations it draws before `</body>`. `files` maps
 * each file's path under public/ (`/images/services/devops.svg`) to its text. The holder is not
 * displayed; each drawing's gradients and patterns are inside its symbol, so every `<use>` of it
 * carries them along (unlike the logo's, whose gradient sits outside its symbol).
 */
export function withIllustrationSymbols(html: string, files: Record<string, string>): string {
  const used = new Set([...html.matchAll(USED)].map((match) => match[1]))
  if (used.size === 0) return html
  const symbols = Object.entries(files)
    .map(([src, svg]) => [illustrationSymbolId(src), svg] as const)
    .filter(([id]) => used.has(id))
    .map(([id, svg]) => illustrationSymbol(svg, id))
  if (symbols.length === 0) return html
  return beforeBodyEnd(
    html,
    `<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" display="none">${symbols.join('')}</svg>`,
  )
}
