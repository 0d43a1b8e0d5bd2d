import { encode } from 'uqr'

/**
 * A QR code of a shop link as SVG (the agent's portal shows it to print or screenshot).
 * uqr (unjs, no dependencies, Project Nayuki's encoder) picks the version and the mask; level M
 * survives a smudged print. ADR 0020 '## Shops'.
 */
export function qrMatrix(text: string): boolean[][] {
  return encode(text, { ecc: 'M', border: 0, maxVersion: 10 }).data
}

/** SVG markup (black on white, 4-module quiet zone) of the QR code of `text`. */
export function qrSvg(text: string): string {
  const m = qrMatrix(text)
  const n = m.length + 8
  let path = ''
  m.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x + 4},${y + 4}h1v1h-1z`
    })
  })
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" width="100%" height="100%" shape-rendering="crispEdges"><rect width="${n}" height="${n}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
}
