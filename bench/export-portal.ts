// Why the export is one COPY rather than a cursor or a portal (ADR 0023): when does the first row of
// a data-modifying statement reach the client?
//
//   node_modules/.bin/node bench/export-portal.ts [--rows=1000000]
//
// In a transaction that is rolled back, on the bench database (scripts/seed-volume.ts), against a
// temporary table: a plain SELECT and `WITH ins AS (INSERT ... RETURNING) SELECT ... FROM ins`, each
// read through an extended-protocol portal 5,000 rows at a time (pg's Query with `rows`, what
// pg-cursor does) and through COPY ... TO STDOUT (pg-copy-streams). Prints figures only.
import pg from 'pg'
import pgCopy from 'pg-copy-streams'
import { openBenchDb } from '../scripts/seed-volume.ts'
import { loadAverage } from './export-run.ts'

const N = Number(process.argv.find((a) => a.startsWith('--rows='))?.split('=')[1] ?? 1_000_000)
const { db } = await openBenchDb()
const client = new pg.Client(db.url)
await client.connect()
await client.query('CREATE TEMP TABLE portal_probe (x int PRIMARY KEY)')

async function viaPortal(sql: string) {
  const t0 = performance.now()
  let first = 0
  let n = 0
  await new Promise<void>((resolve, reject) => {
    const q = new pg.Query({ text: sql, rows: 5000 } as pg.QueryConfig & { rows: number })
    q.on('row', () => {
      if (n++ === 0) first = performance.now() - t0
    })
    q.on('end', () => resolve())
    q.on('error', reject)
    client.query(q)
  })
  return { first, all: performance.now() - t0, n }
}

async function viaCopy(sql: string) {
  const t0 = performance.now()
  let first = 0
  let n = 0
  for await (const chunk of client.query(pgCopy.to(`COPY (${sql}) TO STDOUT`)) as AsyncIterable<Buffer>) {
    if (n === 0) first = performance.now() - t0
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++
  }
  return { first, all: performance.now() - t0, n }
}

const statements = {
  SELECT: `SELECT g AS x FROM generate_series(1, ${N}) g`,
  'WITH ins AS (INSERT ... RETURNING) SELECT': `WITH ins AS (INSERT INTO portal_probe SELECT g FROM generate_series(1, ${N}) g RETURNING x) SELECT x FROM ins`
}
console.log(`${N.toLocaleString('en')} rows; load average ${loadAverage()}`)
for (const [name, sql] of Object.entries(statements)) {
  for (const [how, run] of [
    ['portal, 5,000 a time', viaPortal],
    ['COPY TO STDOUT', viaCopy]
  ] as const) {
    await client.query('BEGIN')
    const r = await run(sql)
    await client.query('ROLLBACK')
    console.log(
      `${name.padEnd(42)} ${how.padEnd(22)} first row after ${r.first.toFixed(0).padStart(5)} ms, all ${r.n.toLocaleString('en')} after ${r.all.toFixed(0)} ms`
    )
  }
}
await client.end()
await db.close()
