// Preload that writes every statement the app sends to PostgreSQL to STATEMENT_LOG (one a line,
// with the connection's process id), so the statements of one request or order can be counted:
//   STATEMENT_LOG=/tmp/stmts.log node --import ./bench/statement-log.ts main.ts
// A measuring aid for bench runs by hand; never loaded by the app itself.
import { appendFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const file = process.env.STATEMENT_LOG
if (file) {
  const pg = createRequire(import.meta.url)('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } }
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: { processID?: number }, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; name?: string }
    const text = typeof q === 'string' ? q : (q?.text ?? `(prepared ${q?.name})`)
    appendFileSync(file, `${Date.now()} ${this.processID ?? '-'} ${text.replace(/\s+/g, ' ').slice(0, 300)}\n`)
    return query.apply(this, args)
  }
}
