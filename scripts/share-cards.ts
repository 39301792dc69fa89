// Each public page's share card (Open Graph and Twitter image, 1200×630): the page's title and a
// line from it, in the site's look, as the HTML `npm run images` renders in Chromium
// (scripts/render-images.ts) into public/og/. Pure functions of app/site.ts, the page list and the
// content modules. Each card records, as PNG text, its words (Title, Description) and the SHA-256
// of its HTML (Source-SHA256): tests/unit/share-cards.test.ts fails when a committed card no
// longer matches its page, and the end-to-end tests read the words back from the served file.
// App modules import `~/…`: under plain Node, load ./app-modules.ts first.
import { readFileSync } from 'node:fs'
import { type PagePath, pageDocument, pages } from '../app/content/pages.ts'
import { absoluteUrl, SHARE_CARD, shareCardPath, shareCardTitle } from '../app/lib/seo.ts'
import { site } from '../app/site.ts'
import { escapeXml, faviconSvg } from './brand-assets.ts'

/** Where Chromium finds Inter while rendering a card (render-images.ts answers it from node_modules). */
export const CARD_FONT_URL = 'https://card.invalid/inter.woff2'
export const cardFont = () =>
  readFileSync(
    new URL('../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2', import.meta.url),
  )

/** The most a card may weigh: WhatsApp, where many of the company's enquiries start, shows no image over 300 KB. */
export const CARD_MAX_BYTES = 100 * 1024

export interface ShareCard {
  path: PagePath
  /** The file in public/. */
  file: string
  title: string
  line: string
  html: string
}

/** A page's address as the card shows it: the canonical host and path, without the scheme. */
const shownAddress = (path: string) =>
  absoluteUrl(path)
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '')

function cardHtml(title: string, line: string, address: string): string {
  const logo = `data:image/svg+xml;base64,${Buffer.from(faviconSvg()).toString('base64')}`
  // Flat colours and outlined shapes, like the site's background: a gradient is dithered when
  // Chromium paints it, and that noise would cost more bytes than the whole card.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
@font-face{font-family:Inter;src:url(${CARD_FONT_URL}) format("woff2");font-weight:100 900}
body{margin:0}
.card{width:${SHARE_CARD.width}px;height:${SHARE_CARD.height}px;position:relative;overflow:hidden;background:${site.themeColor};color:#eef1f8;font-family:Inter,sans-serif}
.bar{position:absolute;inset:0 0 auto 0;height:8px;background:linear-gradient(90deg,#38d5f0,#8b5cf6)}
.shape{position:absolute;fill:none;stroke-width:1.5}
.brand{position:absolute;left:80px;top:60px;display:flex;align-items:center;gap:20px;font-size:34px;font-weight:700;letter-spacing:-.3px}
.words{position:absolute;left:80px;right:150px;top:168px;bottom:118px;display:flex;flex-direction:column;justify-content:center;overflow:hidden}
.title{margin:0;font-size:64px;font-weight:800;letter-spacing:-1.5px;line-height:1.08;text-wrap:balance}
.line{margin:26px 0 0;font-size:32px;font-weight:400;line-height:1.4;color:#b4bdd2;text-wrap:pretty}
.address{position:absolute;left:80px;bottom:56px;font-size:26px;font-weight:600;color:#7ee7f7}
</style></head><body><div class="card">
<div class="bar"></div>
<svg class="shape" style="top:72px;right:96px" width="96" height="96" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" stroke="#38d5f0"/></svg>
<svg class="shape" style="bottom:64px;right:150px" width="64" height="64" viewBox="0 0 24 24"><path d="M12 3 L21 19 H3 Z" stroke="#a78bfa"/></svg>
<svg class="shape" style="top:300px;right:64px" width="44" height="44" viewBox="0 0 24 24"><rect x="4" y="4" width="16" height="16" rx="3" stroke="#6ee7b7" transform="rotate(15 12 12)"/></svg>
<div class="brand"><img src="${logo}" width="64" height="64" alt=""><span>${escapeXml(site.name)}</span></div>
<div class="words" id="words"><h1 class="title" id="title">${escapeXml(title)}</h1><p class="line" id="line">${escapeXml(line)}</p></div>
<div class="address">${escapeXml(address)}</div>
</div><script>
// Smaller type until the words fit their box; the card says whether they did.
document.fonts.ready.then(function () {
  var box = document.getElementById('words'), title = document.getElementById('title'), line = document.getElementById('line')
  var titleSize = 64, lineSize = 32
  while (box.scrollHeight > box.clientHeight && lineSize > 24) { lineSize -= 2; line.style.fontSize = lineSize + 'px' }
  while (box.scrollHeight > box.clientHeight && titleSize > 44) { titleSize -= 4; title.style.fontSize = titleSize + 'px' }
  document.body.dataset.fitted = box.scrollHeight > box.clientHeight ? 'no' : 'yes'
})
</script></body></html>
`
}

/** Every public page's card, in the page list's order. The 404 page and the desk have none. */
export async function shareCards(): Promise<ShareCard[]> {
  return Promise.all(
    pages.map(async (page) => {
      const title = shareCardTitle('title' in page ? page.title : undefined)
      const line = (await pageDocument(page.path)).cardLine
      return {
        path: page.path,
        file: `public${shareCardPath(page.path)}`,
        title,
        line,
        html: cardHtml(title, line, shownAddress(page.path)),
      }
    }),
  )
}
