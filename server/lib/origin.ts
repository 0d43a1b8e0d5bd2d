/** The request a page or handler is answering, as far as this site's address goes. */
export interface Asked {
  /** 'http' or 'https'; pages (which do not see the protocol) leave it out: http. */
  protocol?: string
  /** The Host header. */
  host?: string | null
}

/**
 * This site's address with no trailing slash, for links that leave the page (checkout callbacks,
 * shop links and QR codes, the sitemap): PUBLIC_URL when it is set, else the host the request came
 * to, else '' (a background job with no request and no PUBLIC_URL: links stay relative).
 */
export function publicOrigin(publicUrl: string | undefined, asked?: Asked): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '')
  return asked ? `${asked.protocol ?? 'http'}://${asked.host ?? 'localhost'}` : ''
}
