import express, { type Request } from 'express'

/**
 * JSON bodies up to 100 KB, their raw bytes kept on `req.rawBody`: a webhook's signature is an HMAC over the exact
 * bytes sent, not over a re-serialisation of the parsed object. One definition for the app's parser and the
 * gateways' lean path (ADR 0089), so both keep the same limit and errors.
 */
export const jsonBody = () =>
  express.json({
    limit: '100kb',
    verify: (req, _res, buf) => {
      ;(req as Request).rawBody = buf
    }
  })

/** Plain forms (a browser's form post, a USSD gateway's hop). */
export const formBody = () => express.urlencoded({ extended: false, limit: '20kb' })
