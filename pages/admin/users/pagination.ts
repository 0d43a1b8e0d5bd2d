/** Spec section 9: all pages when 7 or fewer, otherwise first, last and the neighbours of the current page with ellipses. */
export function pageItems(current: number, total: number): Array<number | 'ellipsis'> {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1)
  const items: Array<number | 'ellipsis'> = [1]
  const from = Math.max(2, current - 1)
  const to = Math.min(total - 1, current + 1)
  if (from > 2) items.push('ellipsis')
  for (let p = from; p <= to; p++) items.push(p)
  if (to < total - 1) items.push('ellipsis')
  items.push(total)
  return items
}
