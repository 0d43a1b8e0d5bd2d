import { AsyncLocalStorage } from 'node:async_hooks'
import type { Request, RequestHandler } from 'express'
import type { Services } from '../services/index.ts'

/** Catch-ups begun when a request arrived: any write its client saw committed is older. */
const catchUps = new WeakMap<Request, Promise<boolean>>()
/** The same catch-up for code that sees no request: the session store's read, which express-session calls in the request's turn. */
const current = new AsyncLocalStorage<Promise<boolean>>()

/**
 * Begins one catch-up of this instance's change feed (ADR 0048) for a request carrying the session cookie, before
 * the session and the user are read: the session store, the user's read and a kept page all use that one round trip
 * on the listener's connection, so what they keep is used only after every earlier write's notice was handed on.
 */
export function catchUpEarly(services: Pick<Services, 'signedIn'>, cookieName: string): RequestHandler {
  const mark = `${cookieName}=`
  return (req, _res, next) => {
    if (!req.headers.cookie?.includes(mark)) return next()
    const caughtUp = services.signedIn.fresh()
    catchUps.set(req, caughtUp)
    current.run(caughtUp, next)
  }
}

/** The catch-up begun when `req` arrived, or null (no session cookie). */
export const catchUpOf = (req: Request): Promise<boolean> | null => catchUps.get(req) ?? null

/** The catch-up of the request being handled in this turn, or null outside one. */
export const currentCatchUp = (): Promise<boolean> | null => current.getStore() ?? null
