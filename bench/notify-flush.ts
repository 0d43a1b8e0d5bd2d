// WAL flushes per commit of a transaction that only sends a NOTIFY, beside one that writes a row.
//
//   node_modules/.bin/node bench/notify-flush.ts postgres://user:password@127.0.0.1:port/database
//
// A transaction that queued a NOTIFY holds PostgreSQL's cluster-wide notify lock from its pre-commit until
// its commit ends; when it also wrote rows, that includes its commit record's WAL flush (see
// bench/fulfilment.ts --notify-alternate). This shows whether a notice sent on its own, after the write's
// commit, flushes at all. One session, synchronous_commit as the server has it, 200 autocommitted
// statements of each kind; the flushes are this backend's own (pg_stat_io, flushed on demand).
// Creates and drops the table bench_notify_flush. Prints figures; asserts nothing.
import pg from 'pg'

const c = new pg.Client({ connectionString: process.argv[2] })
await c.connect()
await c.query('CREATE TABLE IF NOT EXISTS bench_notify_flush (id serial PRIMARY KEY, v int)')
const flushes = async () => {
  await c.query('SELECT pg_stat_force_next_flush()')
  await c.query('SELECT 1')
  const r = await c.query<{ f: string }>(`SELECT sum(fsyncs) AS f FROM pg_stat_io WHERE object = 'wal' AND backend_type = 'client backend'`)
  return Number(r.rows[0]!.f)
}
const kinds: [string, string][] = [
  ['SELECT pg_notify only', "SELECT pg_notify('bench_notify_flush', 'x')"],
  ['INSERT only', 'INSERT INTO bench_notify_flush (v) VALUES (1)'],
  ['INSERT + pg_notify', "WITH i AS (INSERT INTO bench_notify_flush (v) VALUES (1)) SELECT pg_notify('bench_notify_flush', 'x')"]
]
for (const [name, sql] of kinds) {
  const f0 = await flushes()
  for (let i = 0; i < 200; i++) await c.query(sql)
  console.log(`${name}: ${(await flushes()) - f0} WAL flushes by this backend for 200 commits`)
}
await c.query('DROP TABLE bench_notify_flush')
await c.end()
