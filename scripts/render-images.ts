// Writes public/favicon.svg and public/site.webmanifest, and renders the raster images in public/
// (favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png and the 1200×630 Open Graph image).
// Everything comes from app/site.ts, the one source, through scripts/brand-assets.ts; a unit test
// (tests/unit/brand-assets.test.ts) fails when the committed files no longer match it.
// Run after changing the name or the theme colour: `npm run images`.
import { writeFileSync } from 'node:fs'
import { chromium } from '@playwright/test'
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

if (import.meta.main) {
  writeFileSync('public/favicon.svg', faviconSvg())
  writeFileSync('public/site.webmanifest', webManifest())
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: CHROMIUM_ARGS })
  for (const { file, width, height, html } of rasterImages()) {
    const page = await browser.newPage({ viewport: { width, height } })
    await page.setContent(`<body style="margin:0">${html}</body>`)
    const png = withPngText(await page.screenshot({ type: 'png' }), SOURCE_KEYWORD, sourceHash(html))
    await page.close()
    writeFileSync(file, file.endsWith('.ico') ? pngToIco(png, width) : png)
  }
  await browser.close()
  console.log(
    `Wrote public/favicon.svg, site.webmanifest, ${rasterImages()
      .map((i) => i.file.slice(7))
      .join(', ')}`,
  )
}
