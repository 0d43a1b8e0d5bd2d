import { expect } from 'chai'
import type { Request, RequestHandler, Response } from 'express'
import { lazySession } from '../../server/http/middleware/lazy-session.ts'

/** Which requests reach the session middleware (express-session itself is not run: only whether it would be). */
function reaches(method: string, url: string, cookie?: string): boolean {
  let ran = false
  const session: RequestHandler = (_req, _res, next) => {
    ran = true
    next()
  }
  const req = { method, url, headers: cookie ? { cookie } : {} } as unknown as Request
  lazySession(session, 'datahub.sid')(req, {} as Response, () => {})
  return ran
}

describe('the session middleware runs only where a session can be', () => {
  it('a write without the session cookie skips it, but for the sign-in routes; any cookie keeps it', () => {
    expect(reaches('POST', '/api/v1/orders')).to.equal(false)
    expect(reaches('POST', '/api/v1/batches')).to.equal(false)
    // A visitor's order remembers its payment in its own signed cookie, not in a new session.
    expect(reaches('POST', '/api/orders')).to.equal(false)
    expect(reaches('POST', '/api/payment/request')).to.equal(false)
    expect(reaches('POST', '/api/vouchers/buy')).to.equal(false)
    // A sign-in creates one, a sign-out ends one, under any case of the path as Express routes it.
    expect(reaches('POST', '/api/auth/login')).to.equal(true)
    expect(reaches('POST', '/API/Auth/Login')).to.equal(true)
    expect(reaches('POST', '/api/auth/logout')).to.equal(true)
    // A browser signed in on the site keeps its session wherever it calls.
    expect(reaches('POST', '/api/v1/orders', 'datahub.sid=s%3Aabc')).to.equal(true)
    expect(reaches('GET', '/api/orders')).to.equal(false)
  })
})
