import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Icon } from '~/components/Icon'
import { IconTile } from '~/components/sections/IconTile'

describe('icons named in content', () => {
  it('draws the lucide icon a name stands for, hidden from assistive technology', async () => {
    const { container, findByTestId } = render(
      <span data-testid="tile">
        <Icon name="cloud" className="size-6" strokeWidth={1.75} />
      </span>,
    )
    const tile = await findByTestId('tile')
    await expect.poll(() => container.querySelector('svg.lucide-cloud')).toBeTruthy()
    const svg = tile.querySelector('svg')
    expect(svg?.getAttribute('class')).toContain('size-6')
    expect(svg?.getAttribute('stroke-width')).toBe('1.75')
    expect(svg?.getAttribute('aria-hidden')).toBe('true')
  })

  it('draws them in a tile', async () => {
    const { container } = render(<IconTile icon="map-pin" colour="emerald" />)
    await expect.poll(() => container.querySelector('span[aria-hidden="true"] svg.lucide-map-pin')).toBeTruthy()
  })
})
