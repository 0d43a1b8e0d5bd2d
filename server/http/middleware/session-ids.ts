import crypto from 'node:crypto'

/** Bytes of randomness in a session id: express-session's own (uid-safe, 24 bytes, 32 base64url characters). */
export const SESSION_ID_BYTES = 24
/** Ids drawn from one fill of the buffer. */
export const IDS_PER_FILL = 256

/**
 * Session ids as express-session makes them (24 bytes from the CSPRNG, base64url), but the bytes are drawn
 * 256 ids at a time, as Node does for crypto.randomUUID: a synchronous randomBytes call for every new
 * session (each visitor's first order makes one) cost 14-35 us on the loaded machine, a slice of a filled
 * buffer about 1 us. Every id still takes 24 bytes no other id shares, and the buffer is overwritten by the next fill.
 */
export function sessionIds(fill: (size: number) => Buffer = crypto.randomBytes): () => string {
  let pool: Buffer = Buffer.alloc(0)
  let at = 0
  return () => {
    if (at + SESSION_ID_BYTES > pool.length) {
      pool = fill(SESSION_ID_BYTES * IDS_PER_FILL)
      at = 0
    }
    const id = pool.toString('base64url', at, at + SESSION_ID_BYTES)
    at += SESSION_ID_BYTES
    return id
  }
}
