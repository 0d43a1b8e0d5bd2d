import type { Request, Response } from 'express'
import type { SessionData } from 'express-session'

/** Requests whose session was saved in full during the request: its row's expiry is already moved. */
const savedEarly = new WeakSet<object>()

/**
 * Saves the request's session now, while the request goes on, instead of at its answer's end. express-session
 * saves a changed session only once the answer is complete and holds the answer's last byte until the row is
 * written: a round trip after all the request's own work. A visitor's order changes its session (the payment it
 * started) long before its answer, inside the order's transaction: the row is written on another connection while
 * the order commits and the gateway answers. The answer still goes out only once every such save is done, so the
 * browser's next request finds the payment it started. Saves of one request run one after another (the last
 * holds the session as it then is); a failed save is logged, and the answer goes out as express-session's would.
 */
export function saveSessionNow(req: Request): void {
  const { session, res } = req
  if (!session || !res) return
  // The row's expiry moves with this save, as express-session's own save at the end would move it.
  session.touch()
  savedEarly.add(req)
  const save = () =>
    new Promise<void>((resolve) =>
      session.save((err?: unknown) => {
        if (err) req.log?.warn({ err: { message: (err as Error).message } }, 'session not saved: this browser may not find its payment again')
        resolve()
      })
    )
  const previous = saves.get(res)
  saves.set(res, previous ? previous.then(save) : save())
  if (!previous) holdEnd(res)
}

const saves = new WeakMap<Response, Promise<void>>()

/** The answer's end waits for the request's session saves (the last of the chain covers the earlier ones). */
function holdEnd(res: Response): void {
  const end = res.end
  res.end = function (this: Response, ...args: unknown[]) {
    void saves.get(res)!.then(() => (end as (...a: unknown[]) => Response).apply(this, args))
    return this
  } as Response['end']
}

/** True when `sess` was saved in full by its own request (express-session hands the store the session, which keeps its request). */
export const savedByItsRequest = (sess: SessionData): boolean => {
  const req = (sess as { req?: object }).req
  return !!req && savedEarly.has(req)
}
