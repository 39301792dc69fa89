import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { illustrationSymbolId } from '~/document/page-symbols'
import { illustrationSymbol, withPageSymbols } from '~/document/page-symbols.server'

// The files as the server has them: every SVG under public/images, by its path on the site.
const files: Record<string, string> = Object.fromEntries(
  readdirSync('public/images', { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.svg'))
    .map((name) => [`/images/${name}`, readFileSync(`public/images/${name}`, 'utf8')]),
)
const page = (body: string) => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`
const uses = (src: string) => `<svg role="img" aria-label="x"><use href="#${illustrationSymbolId(src)}"></use></svg>`

describe('illustration symbols', () => {
  it('every illustration file is here, and each has an id of its own', () => {
    expect(Object.keys(files)).toContain('/images/services/devops.svg')
    expect(Object.keys(files)).toContain('/images/voice-assistant-avatar.svg')
    const ids = Object.keys(files).map(illustrationSymbolId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(illustrationSymbolId('/images/services/devops.svg')).toBe('illustration-devops')
  })

  for (const [src, svg] of Object.entries(files)) {
    it(`${src}: a symbol with the file's viewBox, its ids its own, every reference resolved inside it, no title`, () => {
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
    })
  }

  it('the page gets the symbols of the illustrations it draws, and only those, in one hidden holder before </body>', () => {
    const html = withPageSymbols(page(`<main>${uses('/images/services/devops.svg')}</main>`))
    expect(html.match(/<symbol id="illustration-[a-z-]+"/g)).toEqual(['<symbol id="illustration-devops"'])
    // 0 × 0, not display="none": the drawings' gradients are not painted from a holder not displayed.
    expect(html).toMatch(
      /<\/main><svg [^>]*width="0" height="0"[^>]*><symbol id="illustration-devops"[\s\S]*<\/svg><\/body>/,
    )
  })

  it('a page that draws none, or one with no file, is left as it is', () => {
    const plain = page('<main><img src="/images/services/devops.svg" alt="x"></main>')
    expect(withPageSymbols(plain)).toBe(plain)
    const unknown = page(`<main>${uses('/images/nowhere.svg')}</main>`)
    expect(withPageSymbols(unknown)).toBe(unknown)
  })

  it('a file that is not an SVG with a viewBox is refused by name', () => {
    expect(() => illustrationSymbol('<svg width="4"></svg>', 'illustration-x')).toThrow('illustration-x')
  })
})
