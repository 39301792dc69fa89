// What `npm run images` (scripts/render-images.ts) writes to public/, as pure functions of
// app/site.ts: the logo (favicon.svg), the web app manifest, and the HTML each raster image is
// rendered from. Each PNG records the SHA-256 of its HTML in a tEXt chunk, so that
// tests/unit/brand-assets.test.ts can tell when a committed image no longer matches site.ts
// (the company's name, the theme colour) without rendering it again.
import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { brandMarkGradient, brandMarkShapes } from '../app/components/brand-mark.ts'
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

/** The 1200×630 Open Graph image. */
export function ogImageHtml(): string {
  return `
<div style="width:1200px;height:630px;position:relative;overflow:hidden;font-family:Inter,Arial,sans-serif;
  background:radial-gradient(ellipse at top,#141c33 0%,${site.themeColor} 60%,#060913 100%);color:#eef1f8">
  <div style="position:absolute;top:-160px;left:-120px;width:560px;height:560px;border-radius:50%;background:rgba(56,213,240,.25);filter:blur(80px)"></div>
  <div style="position:absolute;bottom:-200px;right:-120px;width:620px;height:620px;border-radius:50%;background:rgba(139,92,246,.28);filter:blur(90px)"></div>
  <svg style="position:absolute;top:90px;right:140px" width="64" height="64" viewBox="0 0 24 24"><circle cx="12" cy="12" r="9" fill="none" stroke="#38d5f0" stroke-width="1.2"/></svg>
  <svg style="position:absolute;bottom:120px;right:330px" width="44" height="44" viewBox="0 0 24 24"><path d="M12 3 L21 19 H3 Z" fill="none" stroke="#a78bfa" stroke-width="1.2"/></svg>
  <div style="position:absolute;left:96px;top:110px;display:flex;align-items:center;gap:22px">
    <img src="${logoUri()}" width="88" height="88"/>
    <span style="font-size:44px;font-weight:700;letter-spacing:-0.5px">${escapeXml(site.name)}</span>
  </div>
  <div style="position:absolute;left:96px;top:265px;font-size:76px;font-weight:800;letter-spacing:-2px;line-height:1.05">
    Innovate. Automate.<br/><span style="background:linear-gradient(100deg,#7ee7f7,#c4b5fd);-webkit-background-clip:text;color:transparent">Transform.</span>
  </div>
  <div style="position:absolute;left:96px;bottom:70px;font-size:28px;color:#b4bdd2">
    DevOps &amp; cloud · AI &amp; SaaS products · Industrial automation · AI web development
  </div>
</div>`
}

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
    { file: 'public/og-image.png', width: 1200, height: 630, html: ogImageHtml() },
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

/** A PNG with a tEXt chunk `keyword` = `text` after its header (IHDR). */
export function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  const ihdrEnd = PNG_SIGNATURE.length + 8 + png.readUInt32BE(PNG_SIGNATURE.length) + 4
  const type = Buffer.from('tEXt', 'latin1')
  const data = Buffer.from(`${keyword}\0${text}`, 'latin1')
  const chunk = Buffer.alloc(12 + data.length)
  chunk.writeUInt32BE(data.length, 0)
  type.copy(chunk, 4)
  data.copy(chunk, 8)
  chunk.writeUInt32BE(crc32(Buffer.concat([type, data])), 8 + data.length)
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)])
}

/** The tEXt chunks of a PNG, or of the PNG inside a one-image .ico. */
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
