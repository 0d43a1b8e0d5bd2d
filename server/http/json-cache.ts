import type { Response } from 'express'
import crypto from 'node:crypto'
import zlib from 'node:zlib'

/**
 * JSON answers built from a cached object (the active catalogue, the public settings) are
 * serialised, tagged and compressed once per object instead of on every request.
 * The object must not be changed after it is sent: the services hand out a new one when the data
 * changes.
 */
interface Sent {
  body: string
  length: string
  etag: string
  br?: Buffer
  gzip?: Buffer
}
const sent = new WeakMap<object, Sent>()

// Small bodies gain nothing from compression (compression's own default threshold is 1 KB).
const COMPRESS_FROM_BYTES = 1024

export function sendCachedJson(res: Response, value: object, present: (v: any) => unknown = (v) => v): void {
  let hit = sent.get(value)
  if (!hit) {
    const body = JSON.stringify(present(value))
    const bytes = Buffer.byteLength(body)
    hit = { body, length: String(bytes), etag: `W/"${bytes.toString(16)}-${crypto.createHash('sha1').update(body).digest('base64').slice(0, 27)}"` }
    sent.set(value, hit)
  }
  res.setHeader('ETag', hit.etag)
  res.setHeader('Vary', 'Accept-Encoding')
  // A client that has this version already gets a 304 (what Express's res.send does with its own tag).
  if (res.req.fresh) {
    res.statusCode = 304
    res.end()
    return
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  const encoding = Number(hit.length) >= COMPRESS_FROM_BYTES ? res.req.acceptsEncodings('br', 'gzip') : false
  if (encoding === 'br' || encoding === 'gzip') {
    const buf =
      encoding === 'br'
        ? (hit.br ??= zlib.brotliCompressSync(hit.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }))
        : (hit.gzip ??= zlib.gzipSync(hit.body, { level: 9 }))
    res.setHeader('Content-Encoding', encoding)
    res.setHeader('Content-Length', String(buf.length))
    res.end(buf)
    return
  }
  res.setHeader('Content-Length', hit.length)
  // A string body goes out in one write with the headers (a Buffer would take a second one).
  res.end(hit.body)
}
