import compression from 'compression'
import type { Request, RequestHandler, Response } from 'express'
import { pipeline, type Writable } from 'node:stream'
import zlib from 'node:zlib'

/**
 * On-the-fly compression of HTML, JSON and CSV (built assets are precompressed, see staticAssets).
 * A streamed page still sends its head and each Suspense boundary as soon as React writes them: the
 * encoder is flushed once per turn of the event loop after a write, not after every write. React
 * and the renderer write many small chunks in one turn, and a flush after each cost more than the
 * compression itself (ADR 0043).
 * Brotli at quality 1: it runs per request on a shared 2-core machine, and for the 4-40 KB of a page
 * or an API answer quality 4 took 4-6x the CPU for 10-15% fewer bytes.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({
    threshold: THRESHOLD,
    flush: zlib.constants.Z_NO_FLUSH,
    brotli: {
      flush: zlib.constants.BROTLI_OPERATION_PROCESS,
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 }
    }
  })
  return (req, res, next) => {
    // `compression` leaves HEAD answers unencoded, so a HEAD would not show the headers its GET
    // gets. Node decided at the request's start that a HEAD answer has no body (it drops every
    // write), so the rest of the app can treat it as the GET it mirrors.
    if (req.method === 'HEAD') req.method = 'GET'
    compress(req, res, (err?: unknown) => {
      flushOncePerTurn(res)
      compressWholeJsonAtOnce(req, res)
      next(err)
    })
  }
}

const THRESHOLD = 1024
/** JSON answers up to this size, handed to `end` whole, are compressed in the request's own turn. */
export const AT_ONCE_MAX = 64 * 1024
const BROTLI_AT_ONCE = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }

/**
 * `compression` sends every body through a zlib stream, which does its work on libuv's thread pool: an API
 * answer of 1-2 KB (a placed order) waited for a hop to a pool thread and back, on a busy machine longer than
 * the compression itself (tens of microseconds). An answer given whole (`res.json`, `res.send`) is compressed
 * here at once, with the same encodings and settings; `compression` then sees it encoded and passes it on.
 * Streamed answers (pages, exports) and bodies past AT_ONCE_MAX keep the stream.
 */
function compressWholeJsonAtOnce(req: Request, res: Response) {
  const end = res.end
  res.end = function (this: Response, ...args: unknown[]) {
    const [chunk, encoding] = args
    const body = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk
    if (Buffer.isBuffer(body) && body.length >= THRESHOLD && body.length <= AT_ONCE_MAX && compressibleNow(req, res)) {
      const method = req.acceptsEncodings('br', 'gzip')
      if (method === 'br' || method === 'gzip') {
        const out = method === 'br' ? zlib.brotliCompressSync(body, BROTLI_AT_ONCE) : zlib.gzipSync(body)
        res.vary('Accept-Encoding')
        res.setHeader('Content-Encoding', method)
        res.setHeader('Content-Length', out.length)
        const done = args.find((a) => typeof a === 'function')
        return (end as (...a: unknown[]) => Response).call(this, out, done)
      }
    }
    return (end as (...a: unknown[]) => Response).apply(this, args)
  } as Response['end']
}

const compressibleNow = (req: Request, res: Response) =>
  !res.headersSent &&
  req.method !== 'HEAD' &&
  res.statusCode !== 204 &&
  res.statusCode !== 304 &&
  /^application\/json\b/.test(String(res.getHeader('Content-Type') ?? '')) &&
  !res.getHeader('Content-Encoding') &&
  !/\bno-transform\b/.test(String(res.getHeader('Cache-Control') ?? ''))

/** After `compression` took over res.write: each write schedules one flush of the encoder for the end of this turn. */
function flushOncePerTurn(res: Response) {
  const write = res.write
  let pending = false
  const flush = () => {
    pending = false
    res.flush?.()
  }
  res.write = function (this: Response, ...args: unknown[]) {
    if (!pending) {
      pending = true
      setImmediate(flush)
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args)
  } as Response['write']
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
  // Output in 64 KB pieces rather than zlib's 16 KB: a quarter of the callbacks on the main thread (ADR 0047).
  const chunkSize = 64 * 1024
  const encoder =
    encoding === 'br'
      ? zlib.createBrotliCompress({ chunkSize, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
      : zlib.createGzip({ chunkSize, level: 1 })
  res.setHeader('Content-Encoding', encoding)
  // A response that fails or closes early destroys the encoder too, and a writer waiting on it sees 'close'.
  pipeline(encoder, res, () => {})
  return encoder
}
