/** One point each for 8+ characters, an uppercase letter, a digit, a symbol (informational only). */
export function passwordScore(p: string): number {
  return [p.length >= 8, /[A-Z]/.test(p), /\d/.test(p), /[^A-Za-z0-9]/.test(p)].filter(Boolean).length
}
