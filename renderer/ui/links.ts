/** wa.me wants the international number without '+'; a local 0XXXXXXXXX becomes 233XXXXXXXXX. */
export function whatsappLink(number?: string | null): string | null {
  const digits = String(number ?? '').replace(/\D/g, '')
  if (!digits) return null
  const intl = digits.length === 10 && digits.startsWith('0') ? `233${digits.slice(1)}` : digits
  return `https://wa.me/${intl}`
}

/** A shop's WhatsApp ordering link: the bot's number with the text that names the shop typed for the customer. */
export function shopChatLink(number: string | null | undefined, prefill: string, slug: string): string | null {
  const base = whatsappLink(number)
  return base ? `${base}?text=${encodeURIComponent(prefill.replace(/\{slug\}/g, slug))}` : null
}
