import type { Request } from 'express'
import type { Browser, Ctx } from '../services/context.ts'
import { saveSessionNow } from './session-saved-early.ts'

/** How many of its own payments a browser can come back to (status, checkout, simulator phone). */
export const REMEMBERED_PAYMENTS = 20

/** The session's list of payments this browser started; the session is only written when one is added, at once. */
export function browserOf(req: Request): Browser {
  const list = () => (Array.isArray(req.session?.startedPayments) ? req.session.startedPayments : [])
  return {
    owns: (tid) => list().includes(tid),
    remember: (tid) => {
      if (!req.session) return
      req.session.startedPayments = [...list().filter((t) => t !== tid), tid].slice(-REMEMBERED_PAYMENTS)
      // Written while the order goes on, not after its answer is ready; the answer still waits for it.
      saveSessionNow(req)
    },
    started: () => [...list()].reverse()
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
