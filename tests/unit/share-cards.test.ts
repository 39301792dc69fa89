// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { metaFor, pageDocument, pages } from '~/content/pages'
import { toMarkdown } from '~/lib/markdown'
import { SHARE_CARD, seo, shareCardPath } from '~/lib/seo'
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
import { decodePng, encodeIndexedPng, quantize } from '../../scripts/png'
import { CARD_MAX_BYTES, shareCards } from '../../scripts/share-cards'

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file))
    .filter((file) => file.endsWith('.png'))

const metaContent = (meta: readonly object[], key: string) =>
  (meta as { property?: string; name?: string; content?: string }[]).find((m) => (m.property ?? m.name) === key)
    ?.content

const cards = await shareCards()

describe('share cards (public/og/, npm run images)', () => {
  it('there is one per public page and no other (none for the 404 page or the desk)', () => {
    expect(cards.map((card) => card.path)).toEqual(pages.map((page) => page.path))
    expect(filesUnder('public/og').sort()).toEqual(cards.map((card) => card.file).sort())
  })

  it(`each committed card shows its page's words today (else: npm run images), a ${SHARE_CARD.width}×${SHARE_CARD.height} PNG of at most ${CARD_MAX_BYTES / 1024} KB`, () => {
    for (const card of cards) {
      const png = readFileSync(card.file)
      const texts = pngTexts(png)
      expect(texts[SOURCE_KEYWORD], `${card.file}: run npm run images`).toBe(sourceHash(card.html))
      expect({ title: texts.Title, line: texts.Description }, card.file).toEqual({ title: card.title, line: card.line })
      expect(card.html).toContain(site.name)
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], card.file).toEqual([SHARE_CARD.width, SHARE_CARD.height])
      expect(png.length, card.file).toBeLessThanOrEqual(CARD_MAX_BYTES)
    }
  })

  it('the title is the one the page is shared with, and the line is one the page says', async () => {
    for (const card of cards) {
      const ogTitle = metaContent(seo(metaFor(card.path)).meta, 'og:title')
      expect(ogTitle, card.path).toContain(card.title)
      expect(toMarkdown(await pageDocument(card.path)), card.path).toContain(card.line)
    }
  })

  it("each page's head points at its own card, absolute on the canonical origin, with its size and a description", () => {
    for (const page of pages) {
      const { meta } = seo(metaFor(page.path))
      const url = `${site.url}${shareCardPath(page.path)}`
      expect(metaContent(meta, 'og:image'), page.path).toBe(url)
      expect(metaContent(meta, 'twitter:image'), page.path).toBe(url)
      const size = [metaContent(meta, 'og:image:width'), metaContent(meta, 'og:image:height')]
      expect(size).toEqual([String(SHARE_CARD.width), String(SHARE_CARD.height)])
      expect(metaContent(meta, 'og:image:alt'), page.path).toContain(site.name)
      expect(metaContent(meta, 'twitter:card')).toBe('summary_large_image')
    }
  })

  it('the 404 page (noindex) and the defaults every page starts from (all the desk has) name no card', () => {
    for (const head of [
      seo({ description: 'x', path: '/', noindex: true }),
      seo({ description: 'x', path: '/', shareCard: false }),
    ])
      for (const key of ['og:image', 'twitter:image', 'twitter:card'])
        expect(metaContent(head.meta, key), key).toBeUndefined()
  })
})

describe('the palette PNG the cards are written as (scripts/png.ts)', () => {
  it('keeps an image of few colours exactly, and decodes what it encodes', () => {
    const width = 7
    const height = 5
    const data = new Uint8Array(width * height * 4)
    for (let i = 0; i < width * height; i++) data.set([i % 3 === 0 ? 255 : 11, (i * 40) % 256, 32, 255], i * 4)
    const { palette, indices } = quantize({ width, height, data })
    const back = decodePng(encodeIndexedPng(width, height, palette, indices))
    expect(back).toEqual({ width, height, data })
  })

  it('gives an image of more colours than a palette holds 256 colours, each pixel within a few levels of its own', () => {
    const width = 120
    const height = 60
    const data = new Uint8Array(width * height * 4)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) data.set([x * 2, y * 4, (x + y) % 64, 255], (y * width + x) * 4)
    const { palette, indices } = quantize({ width, height, data })
    expect(palette.length).toBe(256)
    const back = decodePng(encodeIndexedPng(width, height, palette, indices))
    const worst = Math.max(...data.map((value, i) => Math.abs(value - (back.data[i] ?? 0))))
    expect(worst).toBeLessThanOrEqual(16)
  })
})

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
