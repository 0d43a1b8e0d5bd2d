import type { Request } from 'express'
import type { Browser, Ctx } from '../services/context.ts'
import type { PaidCookie } from './paid-cookie.ts'

/** How many of its own payments a browser can come back to (status, checkout, simulator phone). */
export const REMEMBERED_PAYMENTS = 20

/**
 * The payments this browser started: its signed cookie (`paid-cookie.ts`), so a visitor's order needs no
 * session row. A session that still holds a list from before the cookie is honoured while it lives;
 * new payments go to the cookie only.
 */
export function browserOf(req: Request): Browser {
  const cookie = req.app?.locals.paidCookie as PaidCookie | undefined
  const inCookie = () => cookie?.read(req) ?? []
  const inSession = () => (Array.isArray(req.session?.startedPayments) ? req.session.startedPayments : [])
  // A browser that keeps using its payments keeps them, as the rolling session did.
  const renew = () => {
    if (cookie && req.res) cookie.renew(req, req.res)
  }
  return {
    owns: (tid) => {
      if (!inCookie().includes(tid)) return inSession().includes(tid)
      renew()
      return true
    },
    remember: (tid) => {
      if (!cookie || !req.res) return
      cookie.write(req, req.res, [...inCookie().filter((t) => t !== tid), tid].slice(-REMEMBERED_PAYMENTS))
    },
    started: () => {
      renew()
      return [...new Set([...inCookie().toReversed(), ...inSession().toReversed()])].slice(0, REMEMBERED_PAYMENTS)
    }
  }
}
/** The plain context services take, read off the request. */
export const ctxOf = (req: Request): Ctx => ({
  user: req.user ?? null,
  ip: req.ip ?? null,
  log: req.log,
  sessionId: req.authVia === 'session' ? req.sessionID : null,
  tokenFamily: req.authVia === 'bearer' ? (req.tokenFamily ?? null) : null,
  browser: browserOf(req)
})

/** After "end the other sessions", the one the request came in on carries the new epoch and stays valid. */
export function keepCurrentSession(req: Request, epoch: number): void {
  if (req.authVia === 'session' && req.session) req.session.epoch = epoch
}
