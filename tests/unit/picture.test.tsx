import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Picture } from '~/components/sections/Picture'
import { services } from '~/content/services'

const image = services[0]?.image ?? { src: '/images/x.svg', alt: 'x', width: 480, height: 360 }

describe('Picture', () => {
  it('an illustration above the fold loads at once and ahead of other images', () => {
    const html = renderToStaticMarkup(<Picture image={image} priority />)
    expect(html).toContain('loading="eager"')
    expect(html).toContain('fetchPriority="high"')
    expect(html).toContain(`alt="${image.alt}"`)
    expect(html).toContain(`width="${image.width}" height="${image.height}"`)
  })

  it('any other illustration loads lazily, with no priority of its own', () => {
    const html = renderToStaticMarkup(<Picture image={image} />)
    expect(html).toContain('loading="lazy"')
    expect(html).not.toMatch(/fetchPriority/i)
  })
})
