import { readFileSync } from 'node:fs'
import { render } from '@testing-library/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Icon } from '~/components/Icon'
import { IconTile } from '~/components/sections/IconTile'
import { ICON_NAMES } from '~/content/types'
import { completeIconSymbols, ICON_SPRITE_ID } from '~/document/page-symbols'
import { withPageSymbols } from '~/document/page-symbols.server'
import { iconSprite, SPRITE_FILE } from '../../scripts/icon-sprite'

const sprite = readFileSync(SPRITE_FILE, 'utf8')
const symbolIds = (html: string) => [...html.matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1])

describe('icons', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('an icon draws its symbol in the page, hidden from assistive technology', () => {
    const { container } = render(<Icon name="cloud" className="size-6" strokeWidth={1.75} />)
    const svg = container.querySelector('svg')
    expect(svg?.getAttribute('class')).toBe('lucide lucide-cloud size-6')
    expect(svg?.getAttribute('stroke-width')).toBe('1.75')
    expect(svg?.getAttribute('stroke')).toBe('currentColor')
    expect(svg?.getAttribute('aria-hidden')).toBe('true')
    expect(svg?.querySelector('use')?.getAttribute('href')).toBe('#icon-cloud')
  })

  it('draws them in a tile', () => {
    const { container } = render(<IconTile icon="map-pin" colour="emerald" />)
    expect(container.querySelector('span[aria-hidden="true"] svg.lucide-map-pin use')).toBeTruthy()
  })

  it('the committed sprite is what `npm run icons` makes from the names and lucide: one symbol each', async () => {
    expect(sprite, 'app/document/icons.svg is out of date: run `npm run icons`').toBe(await iconSprite())
    expect(symbolIds(sprite)).toEqual(ICON_NAMES.map((name) => `icon-${name}`))
    for (const name of ICON_NAMES)
      expect(sprite).toMatch(
        new RegExp(`<symbol id="icon-${name}"[^>]*><(path|circle|rect|line|polyline|polygon|ellipse) `),
      )
  })

  it('in the browser, the sprite file completes the page’s symbols once, without doubling any', async () => {
    document.body.innerHTML = withPageSymbols(`<body>${renderToStaticMarkup(<Icon name="cloud" />)}</body>`).replace(
      /^<body>|<\/body>$/g,
      '',
    )
    const fetchSprite = vi.fn(async () => new Response(sprite))
    vi.stubGlobal('fetch', fetchSprite)
    await completeIconSymbols()
    await completeIconSymbols()
    expect(fetchSprite).toHaveBeenCalledTimes(1)
    const ids = [...document.querySelectorAll(`#${ICON_SPRITE_ID} symbol`)].map((symbol) => symbol.id)
    expect(ids).toHaveLength(ICON_NAMES.length)
    expect(new Set(ids).size).toBe(ICON_NAMES.length)
    expect(document.querySelectorAll('svg#icon-symbols')).toHaveLength(1)
  })
})
