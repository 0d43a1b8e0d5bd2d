import compression from 'compression'
import type { Request, RequestHandler, Response } from 'express'
import { pipeline, type Writable } from 'node:stream'
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

/**
 * The body of a large download (the orders CSV export), compressed by the route itself rather than
 * by compressResponses: brotli quality 1 when the client takes it (every browser), else gzip level
 * 1, else none; no flush per write. On a 200,000-row export (28 MB of CSV) that is 0.2-0.3 s of CPU
 * for ~6 MB, against 0.8-1.0 s for 5.2-5.4 MB at compressResponses' settings (brotli 4, gzip 6, a
 * flush per write; bench/export-compression.ts): the CPU is the export's limit on a 2-core machine,
 * the extra 0.6 MB is not (ADR 0023). Call it when the headers are set and before the first write; write to what it
 * returns and end that. `no-transform` keeps compressResponses (and proxies) off it.
 */
export function downloadBody(req: Request, res: Response): Writable {
  res.vary('Accept-Encoding')
  res.setHeader('Cache-Control', [res.getHeader('Cache-Control'), 'no-transform'].filter(Boolean).join(', '))
  const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : 'identity'
  if (encoding === 'identity') return res
  const encoder = encoding === 'br'
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
    : zlib.createGzip({ level: 1 })
  res.setHeader('Content-Encoding', encoding)
  // A response that fails or closes early destroys the encoder too, and a writer waiting on it sees 'close'.
  pipeline(encoder, res, () => {})
  return encoder
}
