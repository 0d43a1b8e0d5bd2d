import type { RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import path from 'node:path'
import { renderPage } from 'vike/server'
import type { Logger } from '../lib/logger.ts'
import type { Services } from '../services/index.ts'
import { isDbUnavailable } from '../lib/db-unavailable.ts'
import { ensureCsrfToken } from './middleware/csrf.ts'
import { answerDbUnavailable } from './middleware/errors.ts'
import { securityHeaders } from './middleware/security-headers.ts'
import { createPageCache, isCacheablePath, isShopPath, PATH_TAGS, type RenderedPage } from './page-cache.ts'
import { signedInPageCache } from './signed-in-pages.ts'

export const ROOT = path.resolve(import.meta.dirname, '../..')

/** /sw.js as built, or its .br/.gz beside it. */
const SERVICE_WORKER_FILE = /[\\/]sw\.js(\.br|\.gz)?$/

/**
 * The mark the service worker keeps a page by (ADR 0044): only a visitor's page, the same for everyone,
 * may be saved for offline use; a signed-in page never carries it.
 */
export const OFFLINE_COPY_HEADER = ['X-Offline-Copy', 'public'] as const

/**
 * Built assets, sent as the .br or .gz file the build made beside each one (vite.config.ts) when
 * the browser accepts it, with Content-Encoding and Vary: Accept-Encoding. Hashed files under
 * /assets are immutable, so they are cached for a year.
 */
export function staticAssets(): RequestHandler[] {
  const client = path.join(ROOT, 'dist/client')
  // Only a path that names a file can be one: API calls and pages skip the fs.stat.
  const fileLike = /\.[A-Za-z0-9]+$/
  const onlyFiles =
    (h: RequestHandler): RequestHandler =>
    (req, res, next) =>
      fileLike.test(req.path) ? h(req, res, next) : next()
  return [
    onlyFiles(
      expressStaticGzip(client, {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: {
          index: false,
          setHeaders(res, file) {
            if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
            // Icons keep their names across releases (the manifest and old pages name them), so not immutable; a week spares the revalidations.
            else if (file.includes(`${path.sep}icons${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=604800')
            // The service worker is looked at on every visit, so a deploy reaches browsers at once (ADR 0044).
            else if (SERVICE_WORKER_FILE.test(file)) res.setHeader('Cache-Control', 'no-cache')
          }
        }
      })
    )
  ]
}

/** Hands every other GET to Vike, with the services and the signed-in user on pageContext. */
export function vikeHandler(services: Services): RequestHandler {
  const security = securityHeaders(services.deps.env)
  // Development renders with Vite's module graph (files change under it): no cache there.
  const cache = services.deps.env.NODE_ENV === 'development' ? null : anonymousPageCache(services)
  const kept = services.deps.env.NODE_ENV === 'development' ? null : signedInPageCache(services)

  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const settings = await services.settings.get()
    const user = req.user ?? null
    const nonce = security.applyHtml(res)
    // A visitor (no user, no credentials) on a public page gets the page of this settings/packages version.
    if (cache && !user && !req.headers.authorization && isCacheablePath(req.path)) {
      // A shop's page names its own address (og:url): from PUBLIC_URL when set, else from the Host asked for, which then keys the entry.
      const host = isShopPath(req.path) && !services.deps.env.PUBLIC_URL ? (req.headers.host ?? 'localhost') : undefined
      const { page, hit } = await cache.get(req.originalUrl, host)
      res.setHeader('Cache-Control', 'no-store')
      res.setHeader(...OFFLINE_COPY_HEADER)
      // No Accept-Encoding means any coding by the letter of RFC 9110, but plain is what such clients read.
      const gzip = !!req.headers['accept-encoding'] && req.acceptsEncodings('gzip', 'identity') === 'gzip'
      return cache.send(res, page, nonce, hit, gzip)
    }
    // Pages send the token back with API calls; the session is created for signed-in users only.
    const csrfToken = req.session?.userId ? ensureCsrfToken(req.session) : null
    const render = (cspNonce: string) =>
      renderPage({
        urlOriginal: req.originalUrl,
        headersOriginal: req.headers,
        cspNonce,
        services,
        user,
        settings: user?.role === 'ADMIN' ? settings : services.settings.getPublicSync(settings),
        csrfToken,
        simulatedPayments: services.payments.isSimulator
      })
    // The dashboard and the overview: this session's page, kept until what it shows changes (ADR 0048).
    if (
      kept &&
      user &&
      (await kept.answer(req, res, user, nonce, async (placeholder, tag) => buffered(await render(placeholder), tag, services.deps.log, req.originalUrl)))
    )
      return
    const pageContext = await render(nonce)
    // A +data hook that met the database down: the friendly page, not the error page.
    if (isDbUnavailable(pageContext.errorWhileRendering)) return answerDbUnavailable(req, res)
    const { httpResponse } = pageContext
    if (pageContext.errorWhileRendering) logRenderError(req.log, pageContext.errorWhileRendering, httpResponse?.statusCode, req.originalUrl)
    if (!httpResponse) return next()
    setVikeHeaders(res, httpResponse.headers)
    res.setHeader('Cache-Control', 'no-store')
    res.status(httpResponse.statusCode)
    httpResponse.pipe(res)
  }
}

/**
 * A page that answers a client status on purpose (an unknown shop's render(404), a redirect) reaches Vike as an
 * error too; it is none of ours, and anyone can ask for one: info without a stack, so nobody fills the error log.
 */
function logRenderError(log: Logger, err: unknown, status: number | undefined, url: string) {
  if (status !== undefined && status < 500) log.info({ url, status }, status === 404 ? 'page not found' : 'page answered without rendering')
  else log.error({ err, url }, 'page render failed')
}

/** Vike's headers, except its CSP: ours carries this response's nonce already. */
function setVikeHeaders(res: { setHeader(n: string, v: string): unknown }, headers: [string, string][]) {
  for (const [name, value] of headers) if (name.toLowerCase() !== 'content-security-policy') res.setHeader(name, value)
}

/** A rendered page as one string for a page cache, under `tag`; a render that met the database down throws (the error middleware answers 503). */
async function buffered(ctx: Awaited<ReturnType<typeof renderPage>>, tag: string | undefined, log: Logger, url: string): Promise<RenderedPage> {
  // Never keep a page rendered while the database was down.
  if (isDbUnavailable(ctx.errorWhileRendering)) throw ctx.errorWhileRendering
  const r = ctx.httpResponse
  if (ctx.errorWhileRendering) logRenderError(log, ctx.errorWhileRendering, r?.statusCode, url)
  if (!r) return { status: 404, headers: [], body: '' }
  const headers = r.headers.filter(([n]) => n.toLowerCase() !== 'content-security-policy')
  return { status: r.statusCode, headers, body: await r.getBody(), tag }
}

/**
 * The page cache of visitors' pages, keyed by the settings and packages versions and dropped when either moves;
 * a shop's pages are also dropped when that shop changes (ADR 0036), /checkers when a checker product or its stock does (ADR 0047).
 */
function anonymousPageCache(services: Services) {
  const cache = createPageCache({
    version: () => `${services.settings.version()}.${services.packages.version()}`,
    async render(url, nonce, host) {
      const settings = services.settings.getPublicSync(await services.settings.get())
      const headersOriginal: Record<string, string> = { 'user-agent': 'Mozilla/5.0', ...(host ? { host } : {}) }
      const ctx = await renderPage({
        urlOriginal: url,
        headersOriginal,
        cspNonce: nonce,
        services,
        user: null,
        settings,
        csrfToken: null,
        simulatedPayments: services.payments.isSimulator
      })
      const path = new URL(url, 'http://x').pathname
      const page = await buffered(ctx, PATH_TAGS.get(path), services.deps.log, url)
      if (!isShopPath(path) || page.status === 404) return page
      // A shop's page is kept only under its shop's tag: without one, nothing would ever drop it.
      const shopId = (ctx as { data?: { shop?: { id?: unknown } } }).data?.shop?.id
      return typeof shopId === 'number' ? { ...page, tag: `shop:${shopId}` } : { ...page, tag: undefined, noStore: true }
    }
  })
  services.settings.onChange(() => cache.clear())
  services.packages.onChange(() => cache.clear())
  services.shops.onChange((shopId) => cache.drop(shopId === null ? undefined : `shop:${shopId}`))
  services.vouchers.onChange(() => cache.drop('vouchers'))
  return cache
}
