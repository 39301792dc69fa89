import { readFileSync } from 'node:fs'
import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Icon } from '~/components/Icon'
import { IconTile } from '~/components/sections/IconTile'
import { ICON_NAMES } from '~/content/types'
import { iconSprite, SPRITE_FILE } from '../../scripts/icon-sprite'

describe('icons named in content', () => {
  it('draws the named symbol of the sprite, hidden from assistive technology', () => {
    const { container } = render(<Icon name="cloud" className="size-6" strokeWidth={1.75} />)
    const svg = container.querySelector('svg')
    expect(svg?.getAttribute('class')).toBe('lucide lucide-cloud size-6')
    expect(svg?.getAttribute('stroke-width')).toBe('1.75')
    expect(svg?.getAttribute('stroke')).toBe('currentColor')
    expect(svg?.getAttribute('aria-hidden')).toBe('true')
    expect(svg?.querySelector('use')?.getAttribute('href')).toMatch(/icons[^#]*\.svg[^#]*#cloud$/)
  })

  it('draws them in a tile', () => {
    const { container } = render(<IconTile icon="map-pin" colour="emerald" />)
    expect(container.querySelector('span[aria-hidden="true"] svg.lucide-map-pin use')).toBeTruthy()
  })

  it('the committed sprite is what `npm run icons` makes from the names and lucide: one symbol each', async () => {
    const committed = readFileSync(SPRITE_FILE, 'utf8')
    expect(committed, 'app/components/icons.svg is out of date: run `npm run icons`').toBe(await iconSprite())
    const ids = [...committed.matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1])
    expect(ids).toEqual([...ICON_NAMES])
    for (const name of ICON_NAMES)
      expect(committed).toMatch(
        new RegExp(`<symbol id="${name}"[^>]*><(path|circle|rect|line|polyline|polygon|ellipse) `),
      )
  })
})
