import connectPgSimple from 'connect-pg-simple'
import session, { type SessionData } from 'express-session'
import { NO_FLUSH_WAIT } from '../../../models/prepared.ts'
import type { SessionRow } from '../../services/signed-in/index.ts'

/** A session's row is written again on a read only when its last write on this instance is older than this. */
export const TOUCH_EVERY_MS = 60_000
const SWEEP_AT = 10_000
// connect-pg-simple's own default life of a session row whose cookie has no expiry.
const ONE_DAY_S = 86_400

/** express-session hands the store the request's session, which keeps its request (`sess.req`). */
const isRead = (sess: SessionData) => {
  const method = (sess as { req?: { method?: string } }).req?.method
  return method === 'GET' || method === 'HEAD'
}

type PgStoreOptions = ConstructorParameters<ReturnType<typeof connectPgSimple>>[0]

/** Answers a session row from memory when it may (the signed-in service), else from `load`. */
export type KeptSessions = (sid: string, load: () => Promise<SessionRow | null>) => Promise<SessionRow | null>

/**
 * The PostgreSQL session store (connect-pg-simple) that moves a session's expiry on a read (GET)
 * at most once a minute. Rolling sessions otherwise UPDATE their row, a synchronous commit waiting for the
 * WAL flush, on every signed-in request, and express-session holds the response's end until it is
 * done. Skipping the touch never lengthens a session: its row still ends 30 minutes after the last
 * write, which is at most TOUCH_EVERY_MS before the last request, so a session idles out between
 * 29 and 30 minutes after its last request (ADR 0043). A changed session is saved as before.
 */
export function createSessionStore(options: PgStoreOptions, touchEveryMs = TOUCH_EVERY_MS, kept?: KeptSessions): session.Store {
  const PgStore = connectPgSimple(session)
  // When this instance last wrote each session's expiry; another instance writes on its own first read.
  const written = new Map<string, number>()
  const note = (sid: string) => {
    const now = Date.now()
    if (written.size >= SWEEP_AT) for (const [id, at] of written) if (now - at >= touchEveryMs) written.delete(id)
    written.set(sid, now)
  }
  const any = (options?.pgPromise as { any?: (text: string, params: unknown[]) => Promise<unknown[]> } | undefined)?.any
  // connect-pg-simple's own read, with the row's expiry (the column, which a touch moves; the JSON's copy it leaves).
  // The column is a timestamp without zone written through to_timestamp, so it is read back in the same zone.
  const readRow = async (sid: string): Promise<SessionRow | null> => {
    const rows = (await any!(
      `SELECT sess::text AS json, floor(extract(epoch FROM expire::timestamptz) * 1000)::float8 AS "expiresAt"
         FROM ${options?.tableName ?? 'session'} WHERE sid = $1 AND expire >= to_timestamp($2)`,
      [sid, Math.floor(Date.now() / 1000)]
    )) as SessionRow[]
    return rows[0] ?? null
  }
  class ThrottledTouchStore extends PgStore {
    // Kept between loads on this instance (ADR 0048, amendment); every instance drops it when its row changes or goes.
    override get(sid: string, fn: (err: unknown, sess?: SessionData | null) => void) {
      if (!kept || !any) return super.get(sid, fn)
      // A copy per request: express-session turns the object it gets into the request's session. The callback runs
      // outside the promise, as connect-pg-simple's own do, so a throw in it is never an unhandled rejection.
      kept(sid, () => readRow(sid)).then(
        (row) => process.nextTick(fn, null, row ? (JSON.parse(row.json) as SessionData) : null),
        (err) => process.nextTick(fn, err)
      )
    }

    override touch(sid: string, sess: SessionData, fn?: (err?: unknown) => void) {
      const at = written.get(sid)
      // Only a read skips: any other request (the timeout dialog's "Extend Session" is a POST) moves the expiry at once.
      if (at !== undefined && Date.now() - at < touchEveryMs && isRead(sess)) return void fn?.()
      note(sid)
      super.touch(sid, sess, fn)
    }

    // A save does not wait for the WAL flush: a crash of PostgreSQL itself can lose only the last fraction of a
    // second of saves, which at worst signs a browser out (the money follows the gateway, not the session).
    // Ending a session (destroy) still waits: a sign-out must not come undone.
    override set(sid: string, sess: SessionData, fn?: (err?: unknown) => void) {
      note(sid)
      if (!any) return super.set(sid, sess, fn)
      const expires = sess.cookie?.expires
        ? Math.ceil(new Date(sess.cookie.expires).valueOf() / 1000)
        : Math.ceil(Date.now() / 1000 + (options?.ttl ?? ONE_DAY_S))
      any(
        `INSERT INTO ${options?.tableName ?? 'session'} (sess, expire, sid) SELECT $1, to_timestamp($2), $3 FROM ${NO_FLUSH_WAIT}
           ON CONFLICT (sid) DO UPDATE SET sess = $1, expire = to_timestamp($2)`,
        [sess, expires, sid]
      ).then(
        () => process.nextTick(() => fn?.()),
        (err) => process.nextTick(() => fn?.(err))
      )
    }

    override destroy(sid: string, fn?: (err?: unknown) => void) {
      written.delete(sid)
      super.destroy(sid, fn)
    }
  }
  return new ThrottledTouchStore(options)
}
