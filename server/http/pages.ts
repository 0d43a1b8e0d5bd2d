import type { RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import path from 'node:path'
import { renderPage } from 'vike/server'
import type { Services } from '../services/index.ts'
import { ensureCsrfToken } from './middleware/csrf.ts'

export const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * Built assets, sent as the .br or .gz file the build made beside each one (vite.config.ts) when
 * the browser accepts it, with Content-Encoding and Vary: Accept-Encoding. Hashed files under
 * /assets are immutable, so they are cached for a year.
 */
export function staticAssets(): RequestHandler[] {
  const client = path.join(ROOT, 'dist/client')
  return [
    expressStaticGzip(client, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        setHeaders(res, file) {
          if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
        },
      },
    }),
  ]
}

/** Hands every other GET to Vike, with the services and the signed-in user on pageContext. */
export function vikeHandler(services: Services): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const settings = await services.settings.get()
    const user = req.user ?? null
    // Pages send the token back with API calls; the session is created for signed-in users only.
    const csrfToken = req.session?.userId ? ensureCsrfToken(req.session) : null
    const pageContext = await renderPage({
      urlOriginal: req.originalUrl,
      headersOriginal: req.headers,
      cspNonce: res.locals.cspNonce,
      services,
      user,
      settings: user?.role === 'ADMIN' ? settings : services.settings.getPublicSync(settings),
      csrfToken,
      simulatedPayments: services.payments.isSimulator,
    })
    if (pageContext.errorWhileRendering) req.log.error({ err: pageContext.errorWhileRendering }, 'page render failed')
    const { httpResponse } = pageContext
    if (!httpResponse) return next()
    for (const [name, value] of httpResponse.headers) {
      // helmet sets the CSP with this request's nonce already.
      if (name.toLowerCase() !== 'content-security-policy') res.setHeader(name, value)
    }
    res.setHeader('Cache-Control', 'no-store')
    res.status(httpResponse.statusCode)
    httpResponse.pipe(res)
  }
}
