// A PNG with at most 256 colours, from Chromium's full-colour screenshot, for the share cards
// (scripts/share-cards.ts). Chromium dithers gradients, and that noise makes a full-colour PNG of a
// 1200×630 card weigh 300–400 KB; the same picture in a palette of 256 colours, without the
// noise, is a tenth of that and looks the same at a share's size. Only what the screenshots need:
// 8-bit RGB, RGBA or palette PNGs, not interlaced. Node's zlib does the compression; no image library.
import { crc32, deflateSync, inflateSync } from 'node:zlib'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export interface Rgba {
  width: number
  height: number
  /** Four bytes a pixel, row by row. */
  data: Uint8Array
}

/** The pixels of an 8-bit RGB, RGBA or palette PNG, not interlaced. */
export function decodePng(png: Buffer): Rgba {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  let palette: Buffer | null = null
  const idat: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const data = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const [depth, colourType, , , interlace] = data.subarray(8)
      if (depth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 3 && colourType !== 6))
        throw new Error(`unsupported PNG (depth ${depth}, colour type ${colourType}, interlace ${interlace})`)
      channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 1
    } else if (type === 'PLTE') palette = data
    else if (type === 'IDAT') idat.push(data)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const current = new Uint8Array(stride)
  const previous = new Uint8Array(stride)
  const out = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (current[x - channels] ?? 0) : 0
      const b = previous[x] ?? 0
      const c = x >= channels ? (previous[x - channels] ?? 0) : 0
      let predictor = 0
      if (filter === 1) predictor = a
      else if (filter === 2) predictor = b
      else if (filter === 3) predictor = (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      current[x] = ((line[x] ?? 0) + predictor) & 0xff
    }
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4
      if (channels === 1) {
        const entry = (current[x] ?? 0) * 3
        for (let k = 0; k < 3; k++) out[at + k] = palette?.[entry + k] ?? 0
      } else for (let k = 0; k < 3; k++) out[at + k] = current[x * channels + k] ?? 0
      out[at + 3] = channels === 4 ? (current[x * channels + 3] ?? 255) : 255
    }
    previous.set(current)
  }
  return { width, height, data: out }
}

interface Box {
  colours: number[] // 0xRRGGBB
  counts: number[]
}

const channel = (colour: number, k: number) => (colour >> (16 - 8 * k)) & 0xff

/** The box's widest channel and its range. */
function widest(box: Box): { k: number; range: number } {
  let best = { k: 0, range: -1 }
  for (let k = 0; k < 3; k++) {
    let min = 255
    let max = 0
    for (const colour of box.colours) {
      const v = channel(colour, k)
      if (v < min) min = v
      if (v > max) max = v
    }
    if (max - min > best.range) best = { k, range: max - min }
  }
  return best
}

/**
 * A palette of at most `size` colours for an opaque image (median cut: the box of colours with the
 * widest spread, weighted by how many pixels it covers, is split at its median until there are
 * `size`), and each pixel's index in it.
 */
export function quantize(image: Rgba, size = 256): { palette: number[]; indices: Uint8Array } {
  const histogram = new Map<number, number>()
  for (let i = 0; i < image.data.length; i += 4) {
    const colour = ((image.data[i] ?? 0) << 16) | ((image.data[i + 1] ?? 0) << 8) | (image.data[i + 2] ?? 0)
    histogram.set(colour, (histogram.get(colour) ?? 0) + 1)
  }
  let boxes: Box[] = [{ colours: [...histogram.keys()], counts: [...histogram.values()] }]
  while (boxes.length < size) {
    let pick = -1
    let pickScore = 0
    let pickChannel = 0
    boxes.forEach((box, index) => {
      if (box.colours.length < 2) return
      const { k, range } = widest(box)
      const score = range * Math.sqrt(box.counts.reduce((sum, n) => sum + n, 0))
      if (score > pickScore) {
        pick = index
        pickScore = score
        pickChannel = k
      }
    })
    if (pick < 0) break
    const box = boxes[pick] as Box
    const order = box.colours
      .map((_, i) => i)
      .sort((a, b) => {
        const ca = box.colours[a] ?? 0
        const cb = box.colours[b] ?? 0
        return channel(ca, pickChannel) - channel(cb, pickChannel)
      })
    const total = box.counts.reduce((sum, n) => sum + n, 0)
    let seen = 0
    let cut = 1
    for (let i = 0; i < order.length - 1; i++) {
      seen += box.counts[order[i] ?? 0] ?? 0
      cut = i + 1
      if (seen >= total / 2) break
    }
    const half = (from: number, to: number): Box => ({
      colours: order.slice(from, to).map((i) => box.colours[i] ?? 0),
      counts: order.slice(from, to).map((i) => box.counts[i] ?? 0),
    })
    boxes = [...boxes.slice(0, pick), half(0, cut), half(cut, order.length), ...boxes.slice(pick + 1)]
  }
  const palette = boxes.map((box) => {
    const total = box.counts.reduce((sum, n) => sum + n, 0)
    const mean = [0, 1, 2].map((k) =>
      Math.round(box.colours.reduce((sum, colour, i) => sum + channel(colour, k) * (box.counts[i] ?? 0), 0) / total),
    )
    return ((mean[0] ?? 0) << 16) | ((mean[1] ?? 0) << 8) | (mean[2] ?? 0)
  })
  const nearest = new Map<number, number>()
  for (const colour of histogram.keys()) {
    let best = 0
    let bestDistance = Number.POSITIVE_INFINITY
    palette.forEach((entry, index) => {
      let distance = 0
      for (let k = 0; k < 3; k++) distance += (channel(colour, k) - channel(entry, k)) ** 2
      if (distance < bestDistance) {
        best = index
        bestDistance = distance
      }
    })
    nearest.set(colour, best)
  }
  const indices = new Uint8Array(image.width * image.height)
  for (let i = 0; i < indices.length; i++) {
    const colour = ((image.data[i * 4] ?? 0) << 16) | ((image.data[i * 4 + 1] ?? 0) << 8) | (image.data[i * 4 + 2] ?? 0)
    indices[i] = nearest.get(colour) ?? 0
  }
  return { palette, indices }
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** An 8-bit palette PNG (colour type 3). */
export function encodeIndexedPng(width: number, height: number, palette: number[], indices: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 3, 0, 0, 0], 8)
  const plte = Buffer.from(palette.flatMap((colour) => [channel(colour, 0), channel(colour, 1), channel(colour, 2)]))
  // Filter "none" on every row: the usual best for palette images.
  const raw = Buffer.alloc((width + 1) * height)
  for (let y = 0; y < height; y++) raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1)
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A full-colour PNG as a PNG of at most 256 colours. */
export function toPalettePng(png: Buffer): Buffer {
  const image = decodePng(png)
  const { palette, indices } = quantize(image)
  return encodeIndexedPng(image.width, image.height, palette, indices)
}
