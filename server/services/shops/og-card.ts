import zlib from 'node:zlib'

/**
 * The shop's link-preview card (og:image, 1200x630 PNG): WhatsApp and most fetchers want a raster
 * image and run no JavaScript. Drawn here with a 5x7 bitmap font and encoded with node:zlib (deflate
 * and crc32), so no image library or native binary is needed (ADR 0020 '## Shops').
 */

// 5x7 glyphs, one string of 7 rows per character ('#' = ink).
const GLYPHS: Record<string, string> = {
  A: '.###.#...##...#######...##...##...#',
  B: '####.#...#####.#...##...##...#####.',
  C: '.###.#...##....#....#....#...#.###.',
  D: '####.#...##...##...##...##...#####.',
  E: '######....####.#....#....#....#####',
  F: '######....####.#....#....#....#....',
  G: '.###.#...##....#.####...##...#.####',
  H: '#...##...#######...##...##...##...#',
  I: '.###...#....#....#....#....#...###.',
  J: '..###...#....#....#....##..#..##...',
  K: '#...##..#.###..#..#.#...##...##...#',
  L: '#....#....#....#....#....#....#####',
  M: '#...###.###.#.##...##...##...##...#',
  N: '#...###..##.#.##..###...##...##...#',
  O: '.###.#...##...##...##...##...#.###.',
  P: '####.#...##...#####.#....#....#....',
  Q: '.###.#...##...##...##.#.##..#..##.#',
  R: '####.#...##...#####.#.#..#..#.#...#',
  S: '.####.#....#.....###.....#....#####.'.slice(1),
  T: '#####..#....#....#....#....#....#..',
  U: '#...##...##...##...##...##...#.###.',
  V: '#...##...##...##...##...#.#.#...#..',
  W: '#...##...##...##.#.##.#.###.###...#',
  X: '#...##...#.#.#...#...#.#.#...##...#',
  Y: '#...##...#.#.#...#....#....#....#..',
  Z: '#####....#...#...#...#...#....#####',
  '0': '.###.#...##..###.#.###..##...#.###.',
  '1': '..#...##....#....#....#....#...###.',
  '2': '.###.#...#....#...#...#...#...#####',
  '3': '####.....#....#.###.....#....#####.',
  '4': '...#...##..#.#.#..#.#####...#....#.',
  '5': '######....####.....#....##...#.###.',
  '6': '..##..#...#....####.#...##...#.###.',
  '7': '#####....#...#...#...#....#....#...',
  '8': '.###.#...##...#.###.#...##...#.###.',
  '9': '.###.#...##...#.####....#...#..##..',
  '.': '.........................##...##...',
  ',': '....................##...#...#.....',
  '-': '...............###...............',
  ':': '......##...##........##...##.......',
  '&': '.##..#..#.#.#...#...#.#.##..#..##.#',
  "'": '..#....#...#.......................',
  '!': '..#....#....#....#....#.........#..',
  '?': '.###.#...#....#...#...#.........#..',
  '/': '.....#....#...#...#...#...#....#....'.slice(1),
  '+': '.......#....#..#####..#....#.......',
  '(': '...#...#...#....#....#.....#.....#.',
  ')': '.#.....#.....#....#....#...#...#...',
  ' ': '...................................'
}

function hexRgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
}

class Canvas {
  readonly px: Buffer
  readonly w: number
  readonly h: number
  constructor(w: number, h: number, bg: [number, number, number]) {
    this.w = w
    this.h = h
    this.px = Buffer.alloc(w * h * 3)
    this.rect(0, 0, w, h, bg)
  }
  rect(x: number, y: number, w: number, h: number, c: [number, number, number]) {
    const x0 = Math.max(0, x)
    const x1 = Math.min(this.w, x + w)
    if (x1 <= x0) return
    const line = Buffer.alloc((x1 - x0) * 3)
    for (let i = 0; i < line.length; i += 3) (line[i] = c[0]), (line[i + 1] = c[1]), (line[i + 2] = c[2])
    for (let j = Math.max(0, y); j < Math.min(this.h, y + h); j++) line.copy(this.px, (j * this.w + x0) * 3)
  }
  /** Text at a whole-pixel scale (each font pixel is scale x scale); returns its width. */
  text(s: string, x: number, y: number, scale: number, c: [number, number, number]): number {
    let cx = x
    for (const ch of s.toUpperCase()) {
      const g = GLYPHS[ch] ?? GLYPHS['?']!
      for (let row = 0; row < 7; row++)
        for (let col = 0; col < 5; col++) if (g[row * 5 + col] === '#') this.rect(cx + col * scale, y + row * scale, scale, scale, c)
      cx += 6 * scale
    }
    return cx - x
  }
  png(): Buffer {
    const raw = Buffer.alloc((this.w * 3 + 1) * this.h)
    for (let y = 0; y < this.h; y++) this.px.copy(raw, y * (this.w * 3 + 1) + 1, y * this.w * 3, (y + 1) * this.w * 3)
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4)
      len.writeUInt32BE(data.length)
      const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
      const crc = Buffer.alloc(4)
      crc.writeUInt32BE(zlib.crc32(td) >>> 0)
      return Buffer.concat([len, td, crc])
    }
    const ihdr = Buffer.alloc(13)
    ihdr.writeUInt32BE(this.w, 0)
    ihdr.writeUInt32BE(this.h, 4)
    ihdr[8] = 8 // bit depth
    ihdr[9] = 2 // truecolour RGB
    return Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(raw, { level: 6 })),
      chunk('IEND', Buffer.alloc(0))
    ])
  }
}

/** Only what the font can draw; the cedi sign becomes GHS. */
const printable = (s: string) =>
  s
    .replace(/GH₵|₵/g, 'GHS ')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,:&'!?/+()-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()

function fit(s: string, maxWidth: number, maxScale: number, minScale: number): { text: string; scale: number } {
  const text = printable(s)
  const scale = Math.max(minScale, Math.min(maxScale, Math.floor(maxWidth / Math.max(1, text.length * 6))))
  const fits = Math.floor(maxWidth / (6 * scale))
  return { text: text.length > fits ? `${text.slice(0, fits - 3)}...` : text, scale }
}

export function shopCardPng(input: { name: string; accent: string; siteName: string; lines: string[]; closed?: boolean }): Buffer {
  const W = 1200
  const H = 630
  const white: [number, number, number] = [255, 255, 255]
  const c = new Canvas(W, H, hexRgb(input.accent))
  c.rect(0, H - 90, W, 90, [20, 22, 26])
  const site = fit(input.siteName, 1000, 5, 3)
  c.text(site.text, 60, 60, site.scale, white)
  const name = fit(input.name, W - 120, 14, 6)
  c.text(name.text, 60, 150, name.scale, white)
  let y = 150 + name.scale * 7 + 50
  for (const line of (input.closed ? ['This shop is closed'] : input.lines).slice(0, 3)) {
    const l = fit(line, W - 120, 7, 4)
    c.text(l.text, 60, y, l.scale, white)
    y += l.scale * 7 + 24
  }
  const foot = fit('Data bundles: MTN, Telecel, AirtelTigo', W - 120, 5, 3)
  c.text(foot.text, 60, H - 45 - (foot.scale * 7) / 2, foot.scale, white)
  return c.png()
}
