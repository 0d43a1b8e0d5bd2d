import type { Response } from 'express'
import crypto from 'node:crypto'

/**
 * JSON answers built from a cached object (the active catalogue, the public settings) are
 * serialised and tagged once per object instead of on every request (issue 16). The object must
 * not be changed after it is sent: the services hand out a new one when the data changes.
 */
const sent = new WeakMap<object, { body: string; length: string; etag: string }>()

export function sendCachedJson(res: Response, value: object, present: (v: any) => unknown = (v) => v): void {
  let hit = sent.get(value)
  if (!hit) {
    const body = JSON.stringify(present(value))
    const bytes = Buffer.byteLength(body)
    hit = { body, length: String(bytes), etag: `W/"${bytes.toString(16)}-${crypto.createHash('sha1').update(body).digest('base64').slice(0, 27)}"` }
    sent.set(value, hit)
  }
  res.setHeader('ETag', hit.etag)
  // A client that has this version already gets a 304 (what Express's res.send does with its own tag).
  if (res.req.fresh) {
    res.statusCode = 304
    res.end()
    return
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', hit.length)
  // A string body goes out in one write with the headers (a Buffer would take a second one).
  res.end(hit.body)
}
