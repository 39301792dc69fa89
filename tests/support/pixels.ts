import type { Browser } from '@playwright/test'

export interface Pixels {
  width: number
  height: number
  /** RGBA, four bytes a pixel, row by row. */
  data: Uint8ClampedArray
}

/** PNG screenshots decoded into their pixels (by a canvas, in a page of their own). */
export async function decodePngs(browser: Browser, pngs: Buffer[]): Promise<Pixels[]> {
  const page = await browser.newPage()
  const decoded = await page.evaluate(
    (sources) =>
      Promise.all(
        sources.map(async (png) => {
          const image = new Image()
          image.src = `data:image/png;base64,${png}`
          await image.decode()
          const canvas = document.createElement('canvas')
          canvas.width = image.width
          canvas.height = image.height
          const context2d = canvas.getContext('2d')
          if (!context2d) throw new Error('no 2D canvas')
          context2d.drawImage(image, 0, 0)
          // The pixels as base64, not as an array of numbers: a 400 × 400 screenshot is 640,000
          // numbers, whose JSON took most of a test's 30 s on a busy machine.
          const bytes = context2d.getImageData(0, 0, image.width, image.height).data
          let binary = ''
          for (let at = 0; at < bytes.length; at += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
          return { width: image.width, height: image.height, data: btoa(binary) }
        }),
      ),
    pngs.map((png) => png.toString('base64')),
  )
  await page.close()
  return decoded.map(({ width, height, data }) => ({
    width,
    height,
    data: new Uint8ClampedArray(Buffer.from(data, 'base64')),
  }))
}
