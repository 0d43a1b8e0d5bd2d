import type { Response } from 'express'
import crypto from 'node:crypto'

/**
 * JSON answers built from a cached object (the active catalogue, the public settings) are
 * serialised and tagged once per object instead of on every request (issue 16). The object must
 * not be changed after it is sent: the services hand out a new one when the data changes.
 */
const sent = new WeakMap<object, { body: Buffer; etag: string }>()

export function sendCachedJson(res: Response, value: object, present: (v: any) => unknown = (v) => v): void {
  let hit = sent.get(value)
  if (!hit) {
    const body = Buffer.from(JSON.stringify(present(value)))
    hit = { body, etag: `W/"${body.length.toString(16)}-${crypto.createHash('sha1').update(body).digest('base64').slice(0, 27)}"` }
    sent.set(value, hit)
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  // Express answers 304 itself when the request's If-None-Match matches this tag.
  res.setHeader('ETag', hit.etag)
  res.send(hit.body)
}
