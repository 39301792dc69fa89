import { render, screen } from '@testing-library/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { Picture } from '~/components/sections/Picture'
import { services } from '~/content/services'
import { illustrationSymbolId } from '~/document/page-symbols'

const image = services[0]?.image ?? { src: '/images/x.svg', alt: 'x', width: 480, height: 360 }

afterEach(() => {
  document.getElementById(illustrationSymbolId(image.src))?.remove()
})

describe('Picture', () => {
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
