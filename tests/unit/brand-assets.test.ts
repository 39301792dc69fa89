// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { site } from '~/site'
import {
  faviconSvg,
  pngTexts,
  rasterImages,
  SOURCE_KEYWORD,
  sourceHash,
  webManifest,
  withPngText,
} from '../../scripts/brand-assets'

describe('the files in public/ that carry the company name (npm run images)', () => {
  it('the logo (favicon.svg) is what site.ts gives, titled with the name', () => {
    expect(readFileSync('public/favicon.svg', 'utf8')).toBe(faviconSvg())
    expect(faviconSvg()).toContain(`<title>${site.name}</title>`)
  })

  it('the web app manifest is what site.ts gives', () => {
    expect(readFileSync('public/site.webmanifest', 'utf8')).toBe(webManifest())
    expect(JSON.parse(webManifest())).toMatchObject({ name: site.name, theme_color: site.themeColor })
  })

  it('each raster icon was rendered from the HTML site.ts gives today (app icons, favicon.ico)', () => {
    for (const { file, html } of rasterImages()) {
      expect(pngTexts(readFileSync(file))[SOURCE_KEYWORD], `${file}: run npm run images`).toBe(sourceHash(html))
    }
  })

  it('reads back the text it writes into a PNG, Latin-1 (tEXt) or not (iTXt)', () => {
    const png = readFileSync('public/icon-192.png')
    expect(pngTexts(withPngText(png, 'Comment', 'hello'))).toMatchObject({ Comment: 'hello' })
    const quoted = '“Akshara Labs”, “we” – naïve'
    expect(pngTexts(withPngText(withPngText(png, 'Title', quoted), 'Comment', 'é'))).toMatchObject({
      Title: quoted,
      Comment: 'é',
    })
  })
})
