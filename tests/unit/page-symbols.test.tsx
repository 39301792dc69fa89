import { readdirSync, readFileSync } from 'node:fs'
import { render, screen } from '@testing-library/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { Icon } from '~/components/Icon'
import { Logo } from '~/components/Logo'
import { Picture } from '~/components/sections/Picture'
import { services } from '~/content/services'
import { ICON_NAMES } from '~/content/types'
import { BRAND_MARK_ID } from '~/document/brand-mark'
import { illustrationSymbolId } from '~/document/page-symbols'
import {
  illustrationSymbol,
  pageSymbols,
  symbolRegistry,
  symbolsDrawnBy,
  withPageSymbols,
} from '~/document/page-symbols.server'

// Where the page's HTML gets its symbols: one registry, one scan, one splice; the logo's and the
// illustrations' own rules. The icons' own: icon.test.tsx.
const page = (body: string) => `<!DOCTYPE html><html><head></head><body>${body}<script>x()</script></body></html>`
const symbolIds = (html: string) => [...html.matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1])
// The illustration files as the server has them, by their path on the site.
const files: Record<string, string> = Object.fromEntries(
  readdirSync('public/images', { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.svg'))
    .map((name) => [`/images/${name}`, readFileSync(`public/images/${name}`, 'utf8')]),
)
const illustrationFiles = Object.keys(files)

describe('page symbols', () => {
  it('the registry holds every symbol a component can draw: each icon, the brand mark, each illustration', () => {
    const ids = [...pageSymbols().keys()]
    const icons = ICON_NAMES.map((name) => `icon-${name}`)
    expect(ids.slice(0, icons.length + 1)).toEqual([...icons, BRAND_MARK_ID])
    expect(ids.slice(icons.length + 1).sort()).toEqual(illustrationFiles.map(illustrationSymbolId).sort())
  })

  it('refuses two symbols with one id', () => {
    const sprite = '<svg><symbol id="icon-x" viewBox="0 0 24 24"><path d="M0 0"/></symbol></svg>'
    const svg = '<svg viewBox="0 0 4 4"><path d="M0 0"/></svg>'
    expect(() => symbolRegistry(sprite, { '/images/a/x.svg': svg, '/images/b/x.svg': svg })).toThrow('illustration-x')
  })

  it('the scan finds every id the page draws from, once', () => {
    const html = page(renderToStaticMarkup(<Logo />) + renderToStaticMarkup(<Icon name="zap" />).repeat(2))
    expect([...symbolsDrawnBy(html)]).toEqual([BRAND_MARK_ID, 'icon-zap'])
  })

  it('one splice: a page drawing an icon, the logo and an illustration gets one holder of each, in that order, before </body>', () => {
    const image = { src: '/images/services/devops.svg', alt: 'DevOps', width: 480, height: 360 }
    const body = renderToStaticMarkup(
      <main>
        <Picture image={image} priority />
        <Logo />
        <Icon name="cloud" />
      </main>,
    )
    const html = withPageSymbols(page(body))
    expect(html.startsWith(page(body).replace('</body></html>', '<svg id="icon-symbols"'))).toBe(true)
    expect(html.endsWith('</svg></body></html>')).toBe(true)
    expect(symbolIds(html)).toEqual(['icon-cloud', BRAND_MARK_ID, 'illustration-devops'])
    const holders = [...html.slice(html.indexOf('<script>x()</script>')).matchAll(/<svg [^>]*>/g)].map((m) => m[0])
    expect(holders).toEqual([
      '<svg id="icon-symbols" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" display="none">',
      '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" focusable="false">',
      '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" focusable="false">',
    ])
  })

  it('a reference to no symbol of the registry (the skip link, an illustration with no file) adds nothing', () => {
    const html = page('<a href="#main">Skip to content</a><main id="main"></main>')
    expect(withPageSymbols(html)).toBe(html)
    const unknown = page(`<svg role="img"><use href="#${illustrationSymbolId('/images/nowhere.svg')}"></use></svg>`)
    expect(withPageSymbols(unknown)).toBe(unknown)
  })
})

describe('the logo', () => {
  it('draws the mark from a symbol in the page, hidden from assistive technology (the link names it)', () => {
    const html = renderToStaticMarkup(<Logo />)
    expect(html).toContain(`<use href="#${BRAND_MARK_ID}"></use>`)
    expect(html).toContain('aria-hidden="true"')
    expect(html).not.toContain('<img')
  })

  it('its symbol carries its gradient, once, in a holder that is displayed (0 × 0) so the gradient paints', () => {
    const html = withPageSymbols(page(renderToStaticMarkup(<Logo />)))
    expect(html.match(new RegExp(`<symbol id="${BRAND_MARK_ID}"`, 'g'))).toHaveLength(1)
    expect(html).toMatch(/<linearGradient id="brand-mark-gradient"/)
    expect(html).toContain('stroke="url(#brand-mark-gradient)"')
    expect(html).toMatch(/<svg [^>]*width="0" height="0"[^>]*><defs><linearGradient/)
  })
})

describe('illustration symbols', () => {
  it('every illustration file is here, and each has an id of its own', () => {
    expect(illustrationFiles).toContain('/images/services/devops.svg')
    expect(illustrationFiles).toContain('/images/voice-assistant-avatar.svg')
    const ids = illustrationFiles.map(illustrationSymbolId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(illustrationSymbolId('/images/services/devops.svg')).toBe('illustration-devops')
  })

  it.each(Object.entries(files))(
    "%s: a symbol with the file's viewBox, its ids its own, every reference resolved inside it, no title",
    (src, svg) => {
      const id = illustrationSymbolId(src)
      const symbol = illustrationSymbol(svg, id)
      expect(symbol.startsWith(`<symbol id="${id}" viewBox="${svg.match(/viewBox="([^"]+)"/)?.[1]}">`)).toBe(true)
      const defined = [...symbol.matchAll(/\bid="([^"]+)"/g)].map((match) => match[1])
      expect(defined.slice(1).every((inner) => inner?.startsWith(`${id}-`))).toBe(true)
      const referenced = [...symbol.matchAll(/url\(#([^)]+)\)|href="#([^"]+)"/g)].map((match) => match[1] ?? match[2])
      expect(referenced.length).toBeGreaterThan(0)
      for (const reference of referenced) expect(defined).toContain(reference)
      expect(symbol).not.toContain('<title')
      expect(symbol).not.toContain('<svg')
    },
  )

  it('a file that is not an SVG with a viewBox is refused by name', () => {
    expect(() => illustrationSymbol('<svg width="4"></svg>', 'illustration-x')).toThrow('illustration-x')
  })
})

describe('Picture', () => {
  const image = services[0]?.image ?? { src: '/images/x.svg', alt: 'x', width: 480, height: 360 }
  afterEach(() => document.getElementById(illustrationSymbolId(image.src))?.remove())

  it('above the fold, the server draws it from its symbol in the page: named, sized, and no image request', () => {
    const html = renderToStaticMarkup(<Picture image={image} priority />)
    expect(html).toContain(`<use href="#${illustrationSymbolId(image.src)}"></use>`)
    expect(html).toContain(`role="img" aria-label="${image.alt}"`)
    expect(html).toContain(
      `viewBox="0 0 ${image.width} ${image.height}" width="${image.width}" height="${image.height}"`,
    )
    expect(html).not.toContain('<img')
  })

  it('above the fold on a page that has its symbol (the server added it), the browser keeps drawing the symbol', () => {
    const symbol = document.createElementNS('http://www.w3.org/2000/svg', 'symbol')
    symbol.id = illustrationSymbolId(image.src)
    document.body.appendChild(symbol)
    render(<Picture image={image} priority />)
    expect(screen.getByRole('img', { name: image.alt }).tagName.toLowerCase()).toBe('svg')
  })

  it('above the fold on a page without its symbol (an in-site navigation), it is the file, loaded at once and ahead of other images', () => {
    render(<Picture image={image} priority />)
    const drawn = screen.getByRole('img', { name: image.alt })
    expect(drawn.tagName).toBe('IMG')
    expect(drawn.getAttribute('src')).toBe(image.src)
    expect(drawn.getAttribute('loading')).toBe('eager')
    expect(drawn.getAttribute('fetchpriority')).toBe('high')
    expect(drawn.getAttribute('width')).toBe(String(image.width))
  })

  it('any other illustration is the file, loaded lazily, with no priority of its own', () => {
    const html = renderToStaticMarkup(<Picture image={image} />)
    expect(html).toContain(`src="${image.src}"`)
    expect(html).toContain('loading="lazy"')
    expect(html).not.toMatch(/fetchPriority/i)
    expect(html).not.toContain('<use')
  })

  it('a decorative illustration has no name and is hidden from assistive technology', () => {
    expect(renderToStaticMarkup(<Picture image={image} priority decorative />)).toContain('aria-hidden="true"')
    expect(renderToStaticMarkup(<Picture image={image} decorative />)).toContain('alt=""')
  })
})
