import type { Response } from 'express'
import crypto from 'node:crypto'
import { deflatedParts, gzipJoin, type DeflatedParts } from './gzip-join.ts'

/**
 * Anonymous public pages, rendered once per settings/packages version and served from memory
 * (issue 16, ADR 0019). A visitor's page depends only on the URL, the settings and the catalogue,
 * never on who asks, except for the CSP nonce. So the page is rendered with a secret placeholder
 * nonce, cut at every occurrence of it, and each response joins the pieces with its own fresh nonce.
 * The placeholder is random per process and never leaves it (every copy is replaced), so page text
 * cannot guess it to borrow a nonce.
 *
 * Browsers take gzip: each piece is compressed once, when the page is rendered, and a response is
 * the compressed pieces with the nonce between them (gzip-join.ts). Compressing the whole page per
 * request (brotli, compressResponses) cost two thirds of the server's time on a cached page (ADR 0025).
 */

/** The public pages a visitor sees the same way; pages that show a payment's or a code's state are not here. */
export const CACHEABLE_PATHS = new Set(['/', '/data-services', '/afa', '/login', '/forgot', '/agent/register'])

/** A cached copy also ends after this long, so another instance's change is seen as soon as the settings' own cache would see it. */
const MAX_AGE_MS = 5000
const MAX_ENTRIES = 200

export interface RenderedPage {
  status: number
  headers: [string, string][]
  body: string
}

interface Entry {
  version: string
  at: number
  status: number
  headers: [string, string][]
  /** The body cut at the placeholder nonce. */
  parts: Buffer[]
  gzip: DeflatedParts
  bytes: number
}

export interface PageCacheDeps {
  /** Moves whenever anything a public page shows may have changed (settings, packages). */
  version(): string
  /** Renders `url` for a visitor with `nonce` as its CSP nonce, buffered. */
  render(url: string, nonce: string): Promise<RenderedPage>
}

export type PageCache = ReturnType<typeof createPageCache>

export function createPageCache(deps: PageCacheDeps, opts: { maxAgeMs?: number; maxEntries?: number } = {}) {
  const maxAge = opts.maxAgeMs ?? MAX_AGE_MS
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES
  const placeholder = crypto.randomBytes(18).toString('base64url')
  // Map order is insertion order: a hit is moved to the end, the first key is the least recently used.
  const entries = new Map<string, Entry>()
  const filling = new Map<string, Promise<Entry | RenderedPage>>()

  async function fill(url: string, version: string): Promise<Entry | RenderedPage> {
    const page = await deps.render(url, placeholder)
    // Only a plain 200 is kept: redirects (maintenance, guards) and errors are answered as rendered.
    if (page.status !== 200) return page
    const parts = page.body.split(placeholder).map((p) => Buffer.from(p))
    const entry: Entry = { version, at: Date.now(), status: page.status, headers: page.headers, parts, gzip: deflatedParts(parts), bytes: page.body.length }
    if (deps.version() === version) {
      entries.delete(url)
      entries.set(url, entry)
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
    }
    return entry
  }

  return {
    /** The cached page for a visitor's `url` (rendered now when missing or stale; one render per URL at a time). */
    async get(url: string): Promise<{ page: Entry | RenderedPage; hit: boolean }> {
      const version = deps.version()
      const found = entries.get(url)
      if (found && found.version === version && Date.now() - found.at < maxAge) {
        entries.delete(url)
        entries.set(url, found)
        return { page: found, hit: true }
      }
      const key = `${version}\n${url}`
      let pending = filling.get(key)
      if (!pending) {
        pending = fill(url, version).finally(() => filling.delete(key))
        filling.set(key, pending)
      }
      return { page: await pending, hit: false }
    },
    /**
     * Writes the page with `nonce` in place of the placeholder, gzip-encoded when `gzip` (the client
     * takes it). A page that was not kept is written plain, for compressResponses to encode.
     */
    send(res: Response, page: Entry | RenderedPage, nonce: string, hit: boolean, gzip = false): void {
      for (const [name, value] of page.headers) res.setHeader(name, value)
      res.setHeader('X-Page-Cache', hit ? 'hit' : 'miss')
      res.status(page.status)
      if (!('parts' in page)) return void res.end(page.body.split(placeholder).join(nonce))
      res.vary('Accept-Encoding')
      const nonceBytes = Buffer.from(nonce)
      let body: Buffer
      if (gzip) {
        body = gzipJoin(page.gzip, page.parts, nonceBytes)
        res.setHeader('Content-Encoding', 'gzip')
      } else {
        body = Buffer.concat(page.parts.flatMap((p, i) => (i ? [nonceBytes, p] : [p])))
      }
      res.setHeader('Content-Length', body.length)
      res.end(body)
    },
    clear(): void {
      entries.clear()
    },
    get size(): number {
      return entries.size
    },
  }
}
