import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Client } from './http.ts'
import { app } from './server.ts'

/** Every session row, to show a callback on the lean path wrote none and changed none. */
export const sessionRows = () =>
  app().db.sequelize.query<{ sid: string; expire: string }>('SELECT sid, expire::text FROM session ORDER BY sid', { type: QueryTypes.SELECT })

/** A signed-in client's cookies as one Cookie header. */
export const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

/** What the browser's middleware added to every answer (compression's Vary and encoding, a session's cookie): none of it. */
export function untouchedByBrowserMiddleware(res: Response) {
  expect(res.headers.get('vary'), 'Vary').to.equal(null)
  expect(res.headers.getSetCookie(), 'Set-Cookie').to.deep.equal([])
  expect(res.headers.get('content-encoding')).to.equal(null)
}
