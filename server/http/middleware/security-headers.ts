import type { RequestHandler, Response } from 'express'
import helmet from 'helmet'
import crypto from 'node:crypto'
import type { Env } from '../../env.ts'

/**
 * Helmet's headers, computed once at start instead of on every request: the headers
 * are the same for every response except the page's CSP, whose script nonce is per request. So
 * helmet runs once here against a recording response, every request replays the recorded header
 * list, and the HTML handlers alone add the nonce CSP (`htmlCsp`). Assets and USSD answers get the
 * same CSP without a nonce (it only matters to documents; it is kept so nothing runs there).
 *
 * The API (/api/*) answers JSON and CSV, never a document: it gets the headers that matter to such
 * a response (OWASP REST cheat sheet): nothing may run or frame it (`default-src 'none';
 * frame-ancestors 'none'`, X-Frame-Options), no type sniffing, same-origin resource policy, and HSTS
 * when on. Helmet's document-only headers (opener policy, origin-agent cluster, DNS prefetch,
 * download options, referrer policy, the legacy XSS filter) cost a share of a small JSON answer's
 * time and bytes for nothing there.
 */
export interface SecurityHeaders {
  /** Sets the fixed headers on every response (mounted first). */
  middleware: RequestHandler
  /** A fresh nonce for an HTML page and its Content-Security-Policy value; null when CSP is off (dev). */
  htmlCsp(): { nonce: string; header: string } | null
  /** Sets this page's nonce CSP on the response and returns the nonce ('' when CSP is off). */
  applyHtml(res: Response): string
}

const NONCE_MARK = 'NONCE-MARK-9f2c'

function record(mw: RequestHandler): [string, string][] {
  const headers = new Map<string, string>()
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value))
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase())
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    locals: {}
  }
  let done = false
  mw({ method: 'GET', headers: {}, url: '/' } as any, res as any, () => (done = true))
  if (!done) throw new Error('helmet did not finish synchronously')
  return [...headers]
}

export function securityHeaders(env: Env): SecurityHeaders {
  const prod = env.NODE_ENV === 'production'
  const dev = env.NODE_ENV === 'development'
  const directives = (script: string[]) => ({
    'script-src': ["'self'", ...script],
    'img-src': ["'self'", 'data:', 'https:'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'connect-src': ["'self'"],
    // The offline service worker, /sw.js (ADR 0044).
    'worker-src': ["'self'"],
    'form-action': ["'self'", 'https:'],
    'upgrade-insecure-requests': prod && env.PUBLIC_URL?.startsWith('https') ? [] : null
  })
  const base = {
    // Payment pages redirect to the gateway's checkout; keep the default same-origin opener policy.
    crossOriginEmbedderPolicy: false,
    hsts: prod && !!env.PUBLIC_URL?.startsWith('https')
  }
  // Vite's dev client injects inline scripts of its own: no CSP in development.
  const fixed = record(helmet({ ...base, contentSecurityPolicy: dev ? false : { directives: directives([]) } }))
  const withNonce = dev ? null : record(helmet({ ...base, contentSecurityPolicy: { directives: directives([`'nonce-${NONCE_MARK}'`]) } }))
  const csp = withNonce?.find(([n]) => n === 'content-security-policy')?.[1]
  const [before, after] = csp ? csp.split(NONCE_MARK) : ['', '']

  const htmlCsp = () => {
    if (!csp) return null
    const nonce = crypto.randomBytes(16).toString('base64url')
    return { nonce, header: before + nonce + after }
  }
  const api: [string, string][] = [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ['cross-origin-resource-policy', 'same-origin'],
    ...fixed.filter(([n]) => n === 'strict-transport-security')
  ]
  return {
    middleware: (req, res, next) => {
      const list = req.url.startsWith('/api/') ? api : fixed
      for (let i = 0; i < list.length; i++) res.setHeader(list[i]![0], list[i]![1])
      next()
    },
    htmlCsp,
    applyHtml(res) {
      const c = htmlCsp()
      if (!c) return ''
      res.setHeader('Content-Security-Policy', c.header)
      return c.nonce
    }
  }
}
