// The floor under a visitor's order on this machine: what one round trip to PostgreSQL costs (`SELECT 1`), what
// an autocommitted one-row INSERT costs with synchronous_commit on (its commit waits for the WAL flush) and off,
// and how many WAL flushes each commit makes (this backend's own, pg_stat_io). The order needs at least one
// such flushed commit (the order with its payment, before the prompt) and its round trips around it.
//
//   node_modules/.bin/node bench/commit-floor.ts postgres://user:password@127.0.0.1:port/database [times, default 300]
//
// Kinds alternate in slices of 50 so that the machine's load falls on each alike. Creates and drops the table
// bench_commit_floor. Prints figures; asserts nothing.
import os from 'node:os'
import pg from 'pg'

const times = Number(process.argv[3] ?? 300)
const c = new pg.Client({ connectionString: process.argv[2] })
await c.connect()
await c.query('CREATE TABLE IF NOT EXISTS bench_commit_floor (id bigserial PRIMARY KEY, v text)')
const flushes = async () => {
  await c.query('SELECT pg_stat_force_next_flush()')
  await c.query('SELECT 1')
  const r = await c.query<{ f: string }>(`SELECT coalesce(sum(fsyncs), 0) AS f FROM pg_stat_io WHERE object = 'wal' AND backend_type = 'client backend'`)
  return Number(r.rows[0]!.f)
}
const kinds: [string, string, string][] = [
  ['round trip (SELECT 1)', 'on', 'SELECT 1'],
  ['INSERT, synchronous_commit on', 'on', "INSERT INTO bench_commit_floor (v) VALUES ('x')"],
  ['INSERT, synchronous_commit off', 'off', "INSERT INTO bench_commit_floor (v) VALUES ('x')"]
]
const ms: Record<string, number[]> = {}
const fsyncs: Record<string, number> = {}
const load0 = os.loadavg()[0]!
for (let done = 0; done < times; done += 50) {
  for (const [name, sync, sql] of kinds) {
    await c.query(`SET synchronous_commit = ${sync}`)
    const f0 = await flushes()
    for (let i = 0; i < Math.min(50, times - done); i++) {
      const t = process.hrtime.bigint()
      await c.query({ text: sql, name: `floor${kinds.findIndex((k) => k[0] === name)}` })
      ;(ms[name] ??= []).push(Number(process.hrtime.bigint() - t) / 1e6)
    }
    fsyncs[name] = (fsyncs[name] ?? 0) + (await flushes()) - f0
  }
}
await c.query('DROP TABLE bench_commit_floor')
await c.end()
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!
console.log(`commit floor, ${times} of each kind, load ${load0.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`)
for (const [name] of kinds) {
  const xs = ms[name]!
  console.log(
    `${name.padEnd(32)} p50 ${pct(xs, 50).toFixed(2).padStart(6)} ms  p90 ${pct(xs, 90).toFixed(2).padStart(6)}  p99 ${pct(xs, 99).toFixed(2).padStart(6)}  WAL flushes per statement ${(fsyncs[name]! / xs.length).toFixed(2)}`
  )
}
