// What `npm run images` (scripts/render-images.ts) writes to public/, as pure functions of
// app/site.ts: the logo (favicon.svg), the web app manifest, and the HTML each raster icon is
// rendered from (the pages' share cards are in scripts/share-cards.ts). Each PNG records the SHA-256 of its HTML in a tEXt chunk, so that
// tests/unit/brand-assets.test.ts can tell when a committed image no longer matches site.ts
// (the company's name, the theme colour) without rendering it again.
import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { brandMarkGradient, brandMarkShapes } from '../app/document/brand-mark.ts'
import { site } from '../app/site.ts'

/** Text or an attribute value, safe inside XML and HTML. */
export const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c)

/** The brand mark: a stylised "A" whose crossbar is a sound wave, titled with the company's name. */
export function faviconSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><title>${escapeXml(site.name)}</title><defs>${brandMarkGradient('g')}</defs>${brandMarkShapes('g')}</svg>
`
}

const logoUri = () => `data:image/svg+xml;base64,${Buffer.from(faviconSvg()).toString('base64')}`

/** A square app icon: the logo on the theme colour. */
export function iconHtml(size: number, padding: number): string {
  return `
<div style="width:${size}px;height:${size}px;background:${site.themeColor};display:flex;align-items:center;justify-content:center">
  <img src="${logoUri()}" width="${size - 2 * padding}" height="${size - 2 * padding}"/>
</div>`
}

/** Every raster image in public/: its file, size and the HTML it is rendered from. */
export function rasterImages(): { file: string; width: number; height: number; html: string }[] {
  return [
    { file: 'public/apple-touch-icon.png', width: 180, height: 180, html: iconHtml(180, 18) },
    { file: 'public/icon-192.png', width: 192, height: 192, html: iconHtml(192, 16) },
    { file: 'public/icon-512.png', width: 512, height: 512, html: iconHtml(512, 40) },
    { file: 'public/favicon.ico', width: 32, height: 32, html: iconHtml(32, 0) },
  ]
}

/** The web app manifest, from the site's identity. */
export function webManifest(): string {
  const manifest = {
    name: site.name,
    short_name: site.name,
    description:
      'DevOps and cloud automation, AI and SaaS products, industrial automation and AI-powered web development.',
    start_url: '/',
    display: 'standalone',
    background_color: site.themeColor,
    theme_color: site.themeColor,
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  }
  return `${JSON.stringify(manifest, null, 2)}\n`
}

export const SOURCE_KEYWORD = 'Source-SHA256'

export function sourceHash(html: string): string {
  return createHash('sha256').update(html).digest('hex')
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * A PNG with a text chunk `keyword` = `text` after its header (IHDR): tEXt when the text is
 * Latin-1, else iTXt (UTF-8), as the PNG specification has it.
 */
export function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  const ihdrEnd = PNG_SIGNATURE.length + 8 + png.readUInt32BE(PNG_SIGNATURE.length) + 4
  const latin1 = [...text].every((c) => c.charCodeAt(0) <= 0xff)
  const type = Buffer.from(latin1 ? 'tEXt' : 'iTXt', 'latin1')
  const data = latin1
    ? Buffer.from(`${keyword}\0${text}`, 'latin1')
    : Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')])
  const chunk = Buffer.alloc(12 + data.length)
  chunk.writeUInt32BE(data.length, 0)
  type.copy(chunk, 4)
  data.copy(chunk, 8)
  chunk.writeUInt32BE(crc32(Buffer.concat([type, data])), 8 + data.length)
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)])
}

/** The text chunks (tEXt, uncompressed iTXt) of a PNG, or of the PNG inside a one-image .ico. */
export function pngTexts(file: Buffer): Record<string, string> {
  const start = file.indexOf(PNG_SIGNATURE)
  if (start < 0) return {}
  const texts: Record<string, string> = {}
  let offset = start + PNG_SIGNATURE.length
  while (offset + 8 <= file.length) {
    const length = file.readUInt32BE(offset)
    const type = file.toString('latin1', offset + 4, offset + 8)
    if (type === 'tEXt') {
      const [keyword = '', text = ''] = file.toString('latin1', offset + 8, offset + 8 + length).split('\0')
      texts[keyword] = text
    } else if (type === 'iTXt') {
      // keyword, NUL, compression flag and method, language tag, NUL, translated keyword, NUL, text
      const data = file.subarray(offset + 8, offset + 8 + length)
      const keywordEnd = data.indexOf(0)
      const languageEnd = data.indexOf(0, keywordEnd + 3)
      const translatedEnd = data.indexOf(0, languageEnd + 1)
      if (data[keywordEnd + 1] === 0)
        texts[data.toString('latin1', 0, keywordEnd)] = data.toString('utf8', translatedEnd + 1)
    }
    if (type === 'IEND') break
    offset += 12 + length
  }
  return texts
}

/** An .ico file holding one PNG image (supported by every current browser). */
export function pngToIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16)
  header.writeUInt16LE(0, 0) // reserved
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(1, 4) // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6)
  header.writeUInt8(size >= 256 ? 0 : size, 7)
  header.writeUInt8(0, 8) // palette
  header.writeUInt8(0, 9) // reserved
  header.writeUInt16LE(1, 10) // colour planes
  header.writeUInt16LE(32, 12) // bits per pixel
  header.writeUInt32LE(png.length, 14)
  header.writeUInt32LE(22, 18) // offset of the image data
  return Buffer.concat([header, png])
}
