import { readdirSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Icon } from '~/components/Icon'
import { Logo } from '~/components/Logo'
import { Picture } from '~/components/sections/Picture'
import { ICON_NAMES } from '~/content/types'
import { BRAND_MARK_ID } from '~/document/brand-mark'
import { illustrationSymbolId } from '~/document/page-symbols'
import { pageSymbols, symbolRegistry, symbolsDrawnBy, withPageSymbols } from '~/document/page-symbols.server'

/**
 * Where the page's HTML gets its symbols: one registry, one scan, one splice
 * (app/document/page-symbols.server.ts). Each kind's own rules are in icon.test.tsx,
 * brand-mark.test.tsx and illustration-symbols.test.ts.
 */
const page = (body: string) => `<!DOCTYPE html><html><head></head><body>${body}<script>x()</script></body></html>`
const symbolIds = (html: string) => [...html.matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1])
const illustrationFiles = readdirSync('public/images', { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.svg'))
  .map((name) => `/images/${name}`)

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

  it('a reference to no symbol of the registry (the skip link) adds nothing', () => {
    const html = page('<a href="#main">Skip to content</a><main id="main"></main>')
    expect(withPageSymbols(html)).toBe(html)
  })
})
