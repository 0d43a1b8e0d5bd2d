import crypto from 'node:crypto'
import type { Request, Response } from 'express'

/** The cookie that holds the payments a browser started, signed: `<issued>~<ref>~<ref>...~<signature>`. */
export const PAID_COOKIE = 'dh_paid'

// References are digits, letters and `_.=-` (REFERENCE_RE): `~` never occurs in one, so it parts them.
const SEP = '~'
const REF = /^[A-Za-z0-9_.=-]{1,64}$/
// The issue time is written again on a read only when it is older than this: a browser that keeps using its
// payments keeps them, as a rolling session did, without a new cookie on every status poll.
const RENEW_AFTER_MS = 60_000

export interface PaidCookie {
  /** The references newest last, or [] for a missing, expired, malformed or badly signed cookie. */
  read(req: Request): string[]
  /** Sets the cookie to `refs` (newest last) on the answer, replacing one set earlier in the same request. */
  write(req: Request, res: Response, refs: string[]): void
  /** Writes the cookie again with a new issue time when the one the request came with is about to age. */
  renew(req: Request, res: Response): void
}

/**
 * Signed with a key of its own derived from the session secret, so the cookie's signature is never one
 * express-session would take for a session id's (or the other way round). Its life is the session's idle
 * timeout, counted from its issue time inside the signature, so a copied cookie ends too.
 */
export function paidCookie(secret: string, maxAgeMs: number, secureWhen: (req: Request) => boolean): PaidCookie {
  // A KeyObject, not the bytes: an HMAC keyed with a Buffer imports the key again on every call (about 4x the CPU).
  const key = crypto.createSecretKey(crypto.createHmac('sha256', secret).update(PAID_COOKIE).digest())
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest()
  const parsed = new WeakMap<Request, { refs: string[]; issuedAt: number }>()

  const parse = (req: Request) => {
    const known = parsed.get(req)
    if (known) return known
    const out = { refs: [] as string[], issuedAt: 0 }
    parsed.set(req, out)
    const value = sentValue(req.headers.cookie)
    const cut = value ? value.lastIndexOf(SEP) : -1
    if (!value || cut < 0) return out
    const body = value.slice(0, cut)
    const sent = Buffer.from(value.slice(cut + 1), 'base64url')
    const expected = mac(body)
    if (sent.length !== expected.length || !crypto.timingSafeEqual(sent, expected)) return out
    const [issued, ...refs] = body.split(SEP)
    const issuedAt = Number.parseInt(issued ?? '', 36) * 1000
    if (!Number.isFinite(issuedAt) || Date.now() - issuedAt > maxAgeMs || !refs.every((r) => REF.test(r))) return out
    out.refs = refs
    out.issuedAt = issuedAt
    return out
  }

  const write = (req: Request, res: Response, refs: string[]) => {
    if (res.headersSent) return
    const body = [Math.floor(Date.now() / 1000).toString(36), ...refs].join(SEP)
    const value = `${body}${SEP}${mac(body).toString('base64url')}`
    parsed.set(req, { refs, issuedAt: Date.now() })
    const mark = `${PAID_COOKIE}=`
    const set = res.getHeader('Set-Cookie')
    const others = (Array.isArray(set) ? set : set === undefined ? [] : [String(set)]).filter((c) => !c.startsWith(mark))
    const attributes = [`Max-Age=${Math.floor(maxAgeMs / 1000)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(secureWhen(req) ? ['Secure'] : [])]
    res.setHeader('Set-Cookie', [...others, `${mark}${value}; ${attributes.join('; ')}`])
  }

  return {
    read: (req) => parse(req).refs,
    write,
    renew: (req, res) => {
      const { refs, issuedAt } = parse(req)
      if (refs.length && Date.now() - issuedAt >= RENEW_AFTER_MS) write(req, res, refs)
    }
  }
}

/** The cookie's value from a Cookie header (the name whole, not inside another cookie's name). */
function sentValue(header: string | undefined): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === PAID_COOKIE) return part.slice(at + 1).trim()
  }
  return null
}
