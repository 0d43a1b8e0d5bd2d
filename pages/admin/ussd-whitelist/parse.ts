/** Pure helpers of the whitelist page (search, bulk-import parsing, page buttons). */

/** Matches digits ignoring format: 0241234567, 233241234567 and 241234 all find 0241234567. */
export function matchesPhone(stored: string, query: string): boolean {
  if (!query.trim()) return true
  const q = query.replace(/\D/g, '')
  if (!q) return false
  const local = stored.replace(/\D/g, '')
  const intl = local.startsWith('0') ? `233${local.slice(1)}` : local
  return local.includes(q) || intl.includes(q)
}

/** Text mode: numbers split by newline, comma or semicolon. */
export const numbersFromText = (text: string): string[] =>
  text
    .split(/[\n\r,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)

/** CSV mode: the first column of each line; a header line without digits is skipped. */
export function numbersFromCsv(csv: string): string[] {
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/)
  const out: string[] = []
  lines.forEach((line, i) => {
    const first = (line.split(/[,;\t]/)[0] ?? '')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim()
    if (!first) return
    if (i === 0 && !/\d/.test(first)) return
    out.push(first)
  })
  return out
}

/** Up to 5 page buttons around the current page. */
export function pageWindow(page: number, totalPages: number, size = 5): number[] {
  const start = Math.max(1, Math.min(page - Math.floor(size / 2), totalPages - size + 1))
  return Array.from({ length: Math.min(size, totalPages) }, (_, i) => start + i)
}
