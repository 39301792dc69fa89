import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Logo } from '~/components/Logo'
import { BRAND_MARK_ID } from '~/document/brand-mark'
import { withPageSymbols } from '~/document/page-symbols.server'

const page = (body: string) => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`

describe('the logo', () => {
  it('draws the mark from a symbol in the page, hidden from assistive technology (the link names it)', () => {
    const html = renderToStaticMarkup(<Logo />)
    expect(html).toContain(`<use href="#${BRAND_MARK_ID}"></use>`)
    expect(html).toContain('aria-hidden="true"')
    expect(html).not.toContain('<img')
  })

  it('the server adds the mark, with its gradient, once, to a page that draws it', () => {
    const html = withPageSymbols(page(renderToStaticMarkup(<Logo />)))
    expect(html.match(new RegExp(`<symbol id="${BRAND_MARK_ID}"`, 'g'))).toHaveLength(1)
    expect(html).toMatch(/<linearGradient id="brand-mark-gradient"/)
    expect(html).toContain('stroke="url(#brand-mark-gradient)"')
    // Not display="none": a gradient inside an element that is not displayed is not painted.
    expect(html).toMatch(/<svg [^>]*width="0" height="0"[^>]*><defs><linearGradient/)
    expect(html).not.toMatch(/<svg [^>]*display="none"[^>]*><defs>/)
    expect(html.indexOf(`<symbol id="${BRAND_MARK_ID}"`)).toBeLessThan(html.indexOf('</body>'))
  })

  it('a page without the logo gets nothing', () => {
    const html = page('<main>Plain</main>')
    expect(withPageSymbols(html)).toBe(html)
  })
})
