/** Page numbers to show: all when 7 or fewer, otherwise first, last and the current page's neighbours. */
export function pageItems(page: number, total: number): Array<number | 'gap'> {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1)
  const keep = new Set([1, total, page - 1, page, page + 1].filter((p) => p >= 1 && p <= total))
  const out: Array<number | 'gap'> = []
  let prev = 0
  for (const p of [...keep].sort((a, b) => a - b)) {
    if (p - prev > 1) out.push('gap')
    out.push(p)
    prev = p
  }
  return out
}
