import type { Response } from 'express'
import crypto from 'node:crypto'
import { deflatedParts, gzipJoin, type DeflatedParts } from './gzip-join.ts'

/**
 * Anonymous public pages, rendered once per settings/packages version and served from memory
 * (ADR 0019). A visitor's page depends only on the URL, the settings and the catalogue,
 * never on who asks, except for the CSP nonce. So the page is rendered with a secret placeholder
 * nonce, cut at every occurrence of it, and each response joins the pieces with its own fresh nonce.
 * The placeholder is random per process and never leaves it (every copy is replaced), so page text
 * cannot guess it to borrow a nonce.
 *
 * Browsers take gzip: each piece is compressed once, when the page is rendered, and a response is
 * the compressed pieces with the nonce between them (gzip-join.ts). Compressing the whole page per
 * request (brotli, compressResponses) cost two thirds of the server's time on a cached page (ADR 0025).
 */

/**
 * The public pages a visitor sees the same way; pages that show a payment's or a code's state are not here.
 * /checkers/mine and /developers render no data (the buyer's purchases are fetched by the browser).
 */
export const CACHEABLE_PATHS = new Set(['/', '/data-services', '/afa', '/login', '/forgot', '/agent/register', '/checkers', '/checkers/mine', '/developers'])

/** Pages that show rows besides the settings and the catalogue, by the tag their entries are dropped by (ADR 0047). */
export const PATH_TAGS: ReadonlyMap<string, string> = new Map([['/checkers', 'vouchers']])

/** An agent's shop (`/shop/<slug>`, any case: the slug is looked up lower-cased); `?network=` and `?tab=` are other entries. */
const SHOP_PATH = /^\/shop\/[A-Za-z0-9-]{1,30}$/

export const isShopPath = (path: string) => SHOP_PATH.test(path)

/** The public pages a visitor sees the same way, shops included (their entries are dropped per shop). */
export const isCacheablePath = (path: string) => CACHEABLE_PATHS.has(path) || isShopPath(path)

/** A cached copy also ends after this long, so another instance's change is seen as soon as the settings' own cache would see it. */
const MAX_AGE_MS = 5000
const MAX_ENTRIES = 200

export interface RenderedPage {
  status: number
  headers: [string, string][]
  body: string
  /** Names what else the page shows (`shop:<id>`, `vouchers`), so `drop(tag)` can end it. */
  tag?: string
  /** Answered, never kept: the page shows something no tag or version follows. */
  noStore?: boolean
}

interface Entry {
  version: string
  tag?: string
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
  /** Renders `url` for a visitor with `nonce` as its CSP nonce, buffered; `host` when the page shows the host asked for. */
  render(url: string, nonce: string, host?: string): Promise<RenderedPage>
}

export function createPageCache(deps: PageCacheDeps, opts: { maxAgeMs?: number; maxEntries?: number } = {}) {
  const maxAge = opts.maxAgeMs ?? MAX_AGE_MS
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES
  const placeholder = crypto.randomBytes(18).toString('base64url')
  // Map order is insertion order: a hit is moved to the end, the first key is the least recently used.
  const entries = new Map<string, Entry>()
  const filling = new Map<string, Promise<Entry | RenderedPage>>()
  // Moves on every drop: a render that began before a drop may show what was dropped, so it is answered but not kept.
  let drops = 0

  async function fill(key: string, version: string, render: (nonce: string) => Promise<RenderedPage>): Promise<Entry | RenderedPage> {
    const dropsBefore = drops
    const page = await render(placeholder)
    // Only a plain 200 is kept: redirects (maintenance, guards) and errors are answered as rendered.
    if (page.status !== 200 || page.noStore) return page
    const parts = page.body.split(placeholder).map((p) => Buffer.from(p))
    const entry: Entry = {
      version,
      tag: page.tag,
      at: Date.now(),
      status: page.status,
      headers: page.headers,
      parts,
      gzip: deflatedParts(parts),
      bytes: page.body.length
    }
    if (deps.version() === version && drops === dropsBefore) {
      entries.delete(key)
      entries.set(key, entry)
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
    }
    return entry
  }

  return {
    /**
     * The cached page for a visitor's `url` (rendered now when missing or stale; one render per URL at a time).
     * `host` is part of the key when given: the page shows it, and one client's Host header must not reach another.
     * `render`, when given, makes the page instead of `deps.render` (a signed-in page: the key names its session).
     */
    async get(url: string, host?: string, render?: (nonce: string) => Promise<RenderedPage>): Promise<{ page: Entry | RenderedPage; hit: boolean }> {
      const version = deps.version()
      const key = host === undefined ? url : `${host}\n${url}`
      const found = entries.get(key)
      if (found && found.version === version && Date.now() - found.at < maxAge) {
        entries.delete(key)
        entries.set(key, found)
        return { page: found, hit: true }
      }
      // A visitor arriving after a drop does not wait on a render begun before it.
      const fillKey = `${version}\n${drops}\n${key}`
      let pending = filling.get(fillKey)
      if (!pending) {
        pending = fill(key, version, render ?? ((nonce) => deps.render(url, nonce, host))).finally(() => filling.delete(fillKey))
        filling.set(fillKey, pending)
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
      drops++
      entries.clear()
    },
    /** Ends the pages tagged `tag`, or every tagged page when `tag` is undefined. */
    drop(tag?: string): void {
      drops++
      for (const [key, entry] of entries) if (entry.tag !== undefined && (tag === undefined || entry.tag === tag)) entries.delete(key)
    },
    get size(): number {
      return entries.size
    }
  }
}
