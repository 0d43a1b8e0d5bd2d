import express, { type Request } from 'express'

const ESCAPE = Buffer.from('\\u')
/** Requests whose JSON body was decoded from UTF-8 bytes holding no `\u` escape. */
const plain = new WeakSet<Request>()

/**
 * JSON bodies up to 100 KB, their raw bytes kept on `req.rawBody`: a webhook's signature is an HMAC over the exact
 * bytes sent, not over a re-serialisation of the parsed object. One definition for the app's parser and the
 * gateways' lean path (ADR 0089), so both keep the same limit and errors.
 */
export const jsonBody = () =>
  express.json({
    limit: '100kb',
    verify: (req, _res, buf, encoding) => {
      ;(req as Request).rawBody = buf
      if (encoding === 'utf-8' && !buf.includes(ESCAPE)) plain.add(req as Request)
    }
  })

/**
 * True when no string of the parsed body can hold NUL or a lone UTF-16 surrogate, read off its bytes: JSON allows
 * neither raw in a string (NUL is a control character, refused by the parser) and UTF-8 decoding turns an encoded
 * surrogate into U+FFFD, so only a `\u` escape can make one.
 */
export const parsedFromPlainUtf8 = (req: Request) => plain.has(req)

/** Plain forms (a browser's form post, a USSD gateway's hop). */
export const formBody = () => express.urlencoded({ extended: false, limit: '20kb' })
