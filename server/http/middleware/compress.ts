import compression from 'compression'
import type { RequestHandler } from 'express'
import zlib from 'node:zlib'

/**
 * On-the-fly compression of HTML, JSON and CSV (built assets are precompressed, see staticAssets).
 * Every write is flushed (Z_SYNC_FLUSH / BROTLI_OPERATION_FLUSH), so a streamed page still sends
 * its head and each Suspense boundary as soon as React writes it, instead of when the body ends.
 * Brotli at a low quality: it is done per request on a shared 2-core machine.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({
    threshold: 1024,
    flush: zlib.constants.Z_SYNC_FLUSH,
    brotli: {
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
    },
  })
  return (req, res, next) => {
    // `compression` leaves HEAD answers unencoded, so a HEAD would not show the headers its GET
    // gets. Node decided at the request's start that a HEAD answer has no body (it drops every
    // write), so the rest of the app can treat it as the GET it mirrors.
    if (req.method === 'HEAD') req.method = 'GET'
    compress(req, res, next)
  }
}
