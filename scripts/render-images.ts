// Writes public/favicon.svg and public/site.webmanifest, and renders the raster images in public/:
// favicon.ico, apple-touch-icon.png, icon-192.png and icon-512.png from app/site.ts (through
// scripts/brand-assets.ts), and each public page's 1200×630 share card in public/og/ from the page
// list and the content modules (scripts/share-cards.ts). Unit tests (brand-assets.test.ts,
// share-cards.test.ts) fail when a committed file no longer matches its source.
// Run after changing the name, the theme colour, or a page's title or words: `npm run images`.
// IMAGES_OUT_DIR writes the files under another folder instead of public/ (the test that runs this).
import './app-modules.ts'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type Browser, chromium } from '@playwright/test'
import { CHROMIUM_ARGS, resolveChromium } from '../tests/support/chromium.ts'
import {
  faviconSvg,
  pngToIco,
  rasterImages,
  SOURCE_KEYWORD,
  sourceHash,
  webManifest,
  withPngText,
} from './brand-assets.ts'

/** Where a file of public/ is written. */
const out = (file: string) => {
  const target = process.env.IMAGES_OUT_DIR ? join(process.env.IMAGES_OUT_DIR, file.replace(/^public\//, '')) : file
  mkdirSync(dirname(target), { recursive: true })
  return target
}

async function renderIcons(browser: Browser) {
  const page = await browser.newPage()
  for (const { file, width, height, html } of rasterImages()) {
    await page.setViewportSize({ width, height })
    await page.setContent(`<body style="margin:0">${html}</body>`)
    const png = withPngText(await page.screenshot({ type: 'png' }), SOURCE_KEYWORD, sourceHash(html))
    writeFileSync(out(file), file.endsWith('.ico') ? pngToIco(png, width) : png)
  }
  await page.close()
}

/** Each page's card, in 256 colours, with its words and the hash of its HTML as PNG text. */
async function renderCards(browser: Browser) {
  // After ./app-modules.ts: the cards read app modules that import `~/…`.
  const { CARD_FONT_URL, CARD_MAX_BYTES, cardFont, shareCards } = await import('./share-cards.ts')
  const { toPalettePng } = await import('./png.ts')
  const { SHARE_CARD } = await import('../app/lib/seo.ts')
  const font = cardFont()
  const written: string[] = []
  // One tab for every card: each card is a document of its own (setContent), the font the same.
  const page = await browser.newPage({ viewport: { width: SHARE_CARD.width, height: SHARE_CARD.height } })
  await page.route(CARD_FONT_URL, (route) => route.fulfill({ body: font, contentType: 'font/woff2' }))
  for (const card of await shareCards()) {
    await page.setContent(card.html)
    const fitted = await page.waitForFunction(() => document.body.dataset.fitted).then((h) => h.jsonValue())
    if (fitted !== 'yes') throw new Error(`${card.path}: the title and line do not fit the card; shorten the line`)
    let png = toPalettePng(await page.screenshot({ type: 'png' }))
    png = withPngText(png, SOURCE_KEYWORD, sourceHash(card.html))
    png = withPngText(png, 'Description', card.line)
    png = withPngText(png, 'Title', card.title)
    if (png.length > CARD_MAX_BYTES) throw new Error(`${card.file}: ${png.length} bytes, over ${CARD_MAX_BYTES}`)
    writeFileSync(out(card.file), png)
    written.push(`${card.file.slice('public/'.length)} ${(png.length / 1024).toFixed(1)} KB`)
  }
  await page.close()
  return written
}

if (import.meta.main) {
  writeFileSync(out('public/favicon.svg'), faviconSvg())
  writeFileSync(out('public/site.webmanifest'), webManifest())
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: CHROMIUM_ARGS })
  try {
    await renderIcons(browser)
    const cards = await renderCards(browser)
    console.log(
      `Wrote public/favicon.svg, site.webmanifest, ${rasterImages()
        .map((i) => i.file.slice(7))
        .join(', ')}`,
    )
    console.log(`Share cards:\n  ${cards.join('\n  ')}`)
  } finally {
    await browser.close()
  }
}
