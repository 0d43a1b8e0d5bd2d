import compression from 'compression'
import type { Request, RequestHandler, Response } from 'express'
import http from 'node:http'
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
    answersOnFirstUse(Object.getPrototypeOf(res) as Response)
    ;(res as Lazy)[LAZY] = compress
    next()
  }
}

const THRESHOLD = 1024
/** JSON answers up to this size, handed to `end` whole, are compressed in the request's own turn. */
export const AT_ONCE_MAX = 64 * 1024
const BROTLI_AT_ONCE = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }

/**
 * `compression` is set on a response only when its answer needs it (a write, headers sent ahead, a body that is
 * not whole JSON): it puts closures holding the request and the response on the response itself, and with those
 * every scavenge kept each request's objects alive and promoted them, 6-10 KB per request, about a third of what
 * survived an order (ADR 0090). The response's prototype answers in its place until then, with functions made
 * once, the response's own state in one symbol property.
 */
const LAZY = Symbol('compression on first use')
const TAKEN = Symbol('compression taken over')
type Methods = Pick<Response, 'end' | 'write' | 'writeHead' | 'on'>
type Lazy = Response & { [LAZY]?: RequestHandler; [TAKEN]?: Methods }
const prototypes = new WeakSet<object>()
const noop = () => {}
const METHODS = ['end', 'write', 'writeHead', 'on'] as const

/**
 * Hands the response to `compression` (and the flush per turn) now. It wraps the plain methods, and keeps its
 * wrappers beside the response's own: a middleware that wrapped one before (express-session's `end`) keeps
 * calling what it found, the prototype's, which goes on to `compression`'s as it went to them before.
 */
function takeOver(res: Lazy, plain: Methods): void {
  const compress = res[LAZY]!
  res[LAZY] = undefined
  const own = METHODS.map((m) => (Object.hasOwn(res, m) ? res[m] : undefined))
  Object.assign(res, plain)
  compress(res.req, res, noop)
  flushOncePerTurn(res)
  const taken = {} as Record<string, unknown>
  METHODS.forEach((m, i) => {
    taken[m] = res[m]
    if (own[i]) (res as unknown as Record<string, unknown>)[m] = own[i]
    else delete (res as Partial<Methods>)[m]
  })
  res[TAKEN] = taken as unknown as Methods
}

function answersOnFirstUse(proto: Response): void {
  if (prototypes.has(proto)) return
  prototypes.add(proto)
  const plain: Methods = { end: proto.end, write: proto.write, writeHead: proto.writeHead, on: proto.on }
  const call = (res: Lazy, m: (typeof METHODS)[number], args: unknown[]) => {
    if (res[LAZY]) takeOver(res, plain)
    return ((res[TAKEN] ?? plain)[m] as (...a: unknown[]) => unknown).apply(res, args)
  }
  Object.assign(proto, {
    end(this: Lazy, ...args: unknown[]) {
      const compress = this[LAZY]
      const whole = compress && wholeJson(this, args)
      if (!whole) return call(this, 'end', args)
      this[LAZY] = undefined
      // What `compression` did to such an answer: Vary for a compressible type, nothing else below its threshold.
      this.vary('Accept-Encoding')
      const method = whole.length >= THRESHOLD ? this.req.acceptsEncodings('br', 'gzip') : false
      if (method !== 'br' && method !== 'gzip') {
        // deflate, or no encoding the client takes: `compression`'s own choice
        if (whole.length >= THRESHOLD) this[LAZY] = compress
        return call(this, 'end', args)
      }
      const out = method === 'br' ? zlib.brotliCompressSync(whole, BROTLI_AT_ONCE) : zlib.gzipSync(whole)
      this.setHeader('Content-Encoding', method)
      this.setHeader('Content-Length', out.length)
      return (plain.end as (...a: unknown[]) => Response).call(
        this,
        out,
        args.find((a) => typeof a === 'function')
      )
    },
    write(this: Lazy, ...args: unknown[]) {
      return call(this, 'write', args)
    },
    writeHead(this: Lazy, ...args: unknown[]) {
      return call(this, 'writeHead', args)
    },
    flushHeaders(this: Lazy) {
      if (this[LAZY]) takeOver(this, plain)
      return OutgoingFlushHeaders.call(this)
    },
    on(this: Lazy, type: string | symbol, listener: (...a: unknown[]) => void) {
      // `compression` keeps 'drain' listeners for the encoder it may put in between.
      if (type === 'drain' || this[TAKEN]) return call(this, 'on', [type, listener])
      return plain.on.call(this, type, listener)
    }
  })
}
const OutgoingFlushHeaders = http.OutgoingMessage.prototype.flushHeaders

/**
 * A JSON answer handed to `end` whole, headers not yet sent, up to AT_ONCE_MAX: `compression` sent every body
 * through a zlib stream, which does its work on libuv's thread pool, and an API answer of 1-2 KB (a placed order)
 * waited for a hop to a pool thread and back, on a busy machine longer than the compression itself (tens of
 * microseconds). Such an answer is compressed here at once, with the same encodings and settings.
 */
function wholeJson(res: Lazy, args: unknown[]): Buffer | null {
  const [chunk, encoding] = args
  const body = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk
  if (!Buffer.isBuffer(body) || body.length > AT_ONCE_MAX || !compressibleNow(res.req, res)) return null
  if (body.length < THRESHOLD && Number(res.getHeader('Content-Length') ?? body.length) !== body.length) return null
  return body
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
