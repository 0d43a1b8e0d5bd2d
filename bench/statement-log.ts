// Preload that writes every statement the app sends to PostgreSQL to STATEMENT_LOG (one a line,
// with the connection's process id and, once its answer came, how long it took in ms), so the
// statements of one request or order can be counted and timed:
//   STATEMENT_LOG=/tmp/stmts.log node --import ./bench/statement-log.ts main.ts
// Line: `<epoch ms at send> <pid> <ms until answered> <statement>`. A measuring aid for bench runs by hand; never loaded by the app itself.
// Lines are written in batches, 20 ms after the first of them (and at exit): a synchronous write per statement was
// ~0.1-0.7 ms of the server's CPU per order on the order's own path, measured as the app's.
// STATEMENT_LOG_GATE=<file>: statements are logged only while that file exists (looked at every 25 ms), so a bench's
// timed rounds do not pay for the log (0.4-0.9 ms of app CPU per wallet order, which production never pays).
import { appendFileSync, existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const file = process.env.STATEMENT_LOG
if (file) {
  const gate = process.env.STATEMENT_LOG_GATE
  let on = !gate
  if (gate) setInterval(() => (on = existsSync(gate)), 25).unref()
  let pending: string[] = []
  const flush = () => {
    if (!pending.length) return
    appendFileSync(file, pending.join(''))
    pending = []
  }
  process.on('exit', flush)
  const pg = createRequire(import.meta.url)('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } }
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: { processID?: number }, ...args: unknown[]) {
    if (!on) return query.apply(this, args)
    const q = args[0] as string | { text?: string; name?: string }
    const text = typeof q === 'string' ? q : (q?.text ?? `(prepared ${q?.name})`)
    const sentAt = Date.now()
    const t0 = process.hrtime.bigint()
    const line = () => {
      if (!pending.length) setTimeout(flush, 20).unref()
      pending.push(`${sentAt} ${this.processID ?? '-'} ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(3)} ${text.replace(/\s+/g, ' ').slice(0, 300)}\n`)
    }
    // Sequelize passes a callback; pg's own callers take the promise.
    const cb = args.findIndex((a) => typeof a === 'function')
    if (cb >= 0) {
      const done = args[cb] as (...r: unknown[]) => unknown
      args[cb] = (...r: unknown[]) => {
        line()
        return done(...r)
      }
      return query.apply(this, args)
    }
    const out = query.apply(this, args) as { then?: (f: () => void, r: () => void) => unknown } | undefined
    if (out && typeof out.then === 'function') out.then(line, line)
    else line()
    return out
  }
}
