import type { Request } from 'express'
import type { Ctx } from '../services/context.ts'

/** The plain context services take, read off the request. */
export const ctxOf = (req: Request): Ctx => ({
  user: req.user ?? null,
  ip: req.ip ?? null,
  log: req.log,
  sessionId: req.authVia === 'session' ? req.sessionID : null,
  tokenFamily: req.authVia === 'bearer' ? (req.tokenFamily ?? null) : null,
})

/** After "end the other sessions", the one the request came in on carries the new epoch and stays valid. */
export function keepCurrentSession(req: Request, epoch: number): void {
  if (req.authVia === 'session' && req.session) req.session.epoch = epoch
}
