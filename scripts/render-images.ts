// Renders the raster images in public/ from SVG: favicon.ico, apple-touch-icon.png,
// icon-192.png, icon-512.png and the 1200×630 Open Graph image, and writes public/site.webmanifest.
// The name and colours come from app/site.ts, the one source (a unit test checks the manifest
// still matches it). Run after changing the name: `npm run images`.
import { readFileSync, writeFileSync } from 'node:fs'
import { chromium } from '@playwright/test'
import { site } from '../app/site.ts'
import { CHROMIUM_ARGS, resolveChromium } from '../tests/support/chromium.ts'

const logo = readFileSync('public/favicon.svg', 'utf8')
const logoUri = `data:image/svg+xml;base64,${Buffer.from(logo).toString('base64')}`

const ogImage = `
<div style="width:1200px;height:630px;position:relative;overflow:hidden;font-family:Inter,Arial,sans-serif;
  background:radial-gradient(ellipse at top,#141c33 0%,#0b1020 60%,#060913 100%);color:#eef1f8">
  <div style="position:absolute;top:-160px;left:-120px;width:560px;height:560px;border-radius:50%;background:rgba(56,213,240,.25);filter:blur(80px)"></div>
  <div style="position:absolute;bottom:-200px;right:-120px;width:620px;height:620px;border-radius:50%;background:rgba(139,92,246,.28);filter:blur(90px)"></div>
  <svg style="position:absolute;top:90px;right:140px" width="64" height="64" viewBox="0 0 24 24"><circle cx="12" cy="12" r="9" fill="none" stroke="#38d5f0" stroke-width="1.2"/></svg>
  <svg style="position:absolute;bottom:120px;right:330px" width="44" height="44" viewBox="0 0 24 24"><path d="M12 3 L21 19 H3 Z" fill="none" stroke="#a78bfa" stroke-width="1.2"/></svg>
  <div style="position:absolute;left:96px;top:110px;display:flex;align-items:center;gap:22px">
    <img src="${logoUri}" width="88" height="88"/>
    <span style="font-size:44px;font-weight:700;letter-spacing:-0.5px">${site.name}</span>
  </div>
  <div style="position:absolute;left:96px;top:265px;font-size:76px;font-weight:800;letter-spacing:-2px;line-height:1.05">
    Innovate. Automate.<br/><span style="background:linear-gradient(100deg,#7ee7f7,#c4b5fd);-webkit-background-clip:text;color:transparent">Transform.</span>
  </div>
  <div style="position:absolute;left:96px;bottom:70px;font-size:28px;color:#b4bdd2">
    DevOps &amp; cloud · AI &amp; SaaS products · Industrial automation · AI web development
  </div>
</div>`

const icon = (size: number, padding: number) => `
<div style="width:${size}px;height:${size}px;background:#0b1020;display:flex;align-items:center;justify-content:center">
  <img src="${logoUri}" width="${size - 2 * padding}" height="${size - 2 * padding}"/>
</div>`

/** An .ico file holding one PNG image (supported by every current browser). */
function pngToIco(png: Buffer, size: number): Buffer {
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

if (import.meta.main) {
  writeFileSync('public/site.webmanifest', webManifest())
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: CHROMIUM_ARGS })
  async function render(html: string, width: number, height: number): Promise<Buffer> {
    const page = await browser.newPage({ viewport: { width, height } })
    await page.setContent(`<body style="margin:0">${html}</body>`)
    const png = await page.screenshot({ type: 'png' })
    await page.close()
    return png
  }

  writeFileSync('public/og-image.png', await render(ogImage, 1200, 630))
  writeFileSync('public/apple-touch-icon.png', await render(icon(180, 18), 180, 180))
  writeFileSync('public/icon-192.png', await render(icon(192, 16), 192, 192))
  writeFileSync('public/icon-512.png', await render(icon(512, 40), 512, 512))
  writeFileSync('public/favicon.ico', pngToIco(await render(icon(32, 0), 32, 32), 32))
  await browser.close()
  console.log(
    'Wrote public/site.webmanifest, og-image.png, apple-touch-icon.png, icon-192.png, icon-512.png, favicon.ico',
  )
}
