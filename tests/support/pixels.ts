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
          return {
            width: image.width,
            height: image.height,
            data: Array.from(context2d.getImageData(0, 0, image.width, image.height).data),
          }
        }),
      ),
    pngs.map((png) => png.toString('base64')),
  )
  await page.close()
  return decoded.map(({ width, height, data }) => ({ width, height, data: Uint8ClampedArray.from(data) }))
}
