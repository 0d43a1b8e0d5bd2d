// What compressing the orders CSV costs, per encoder setting (ADR 0023): compressResponses' settings
// (gzip 6 / brotli 4, flushed after every write) against the export's own (gzip 1 / brotli 1).
//
//   node_modules/.bin/node bench/export-compression.ts [--rows=200000]
//
// Takes a CSV of that many paid orders from the bench database (scripts/seed-volume.ts) in the
// export's shape, then compresses it in 64 KB writes with each setting: size and CPU. Figures only.
import pgCopy from 'pg-copy-streams'
import pg from 'pg'
import zlib from 'node:zlib'
import { openBenchDb } from '../scripts/seed-volume.ts'
import { loadAverage } from './export-run.ts'

const ROWS = Number(process.argv.find((a) => a.startsWith('--rows='))?.split('=')[1] ?? 200_000)
const { db } = await openBenchDb()
const client = new pg.Client(db.url)
await client.connect()
const parts: Buffer[] = []
const csv = `COPY (SELECT o.id, E'\\t' || o.recipient_number, o.network, o.data_size_mb::text || 'MB', o.data_size_mb, (o.amount_pesewas / 100.0)::numeric(14,2),
                  CASE WHEN o.agent_id IS NULL THEN 'Direct Customer' ELSE 'Agent' END, a.name, E'\\t' || a.phone, o.payment_status,
                  E'\\t' || o.payment_transaction_id, E'\\t' || o.payment_phone_number, to_char(o.created_at, 'YYYY-MM-DD HH24:MI:SS'),
                  to_char(now(), 'YYYY-MM-DD HH24:MI:SS'), 'no'
             FROM orders o LEFT JOIN agents a ON a.id = o.agent_id WHERE o.payment_status = 'SUCCESS' ORDER BY o.id LIMIT ${ROWS})
        TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (name))`
for await (const chunk of client.query(pgCopy.to(csv)) as AsyncIterable<Buffer>) parts.push(chunk)
await client.end()
await db.close()
const file = Buffer.concat(parts)
const writes: Buffer[] = []
for (let i = 0; i < file.length; i += 65536) writes.push(file.subarray(i, i + 65536))

const FLUSH = { flush: zlib.constants.Z_SYNC_FLUSH }
const settings: Array<[string, () => zlib.Gzip | zlib.BrotliCompress]> = [
  ['gzip 6, flush per write (compressResponses)', () => zlib.createGzip(FLUSH)],
  [
    'brotli 4, flush per write (compressResponses)',
    () => zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
  ],
  ['gzip 1 (the export)', () => zlib.createGzip({ level: 1 })],
  ['brotli 1 (the export)', () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })]
]
console.log(`${ROWS.toLocaleString('en')} rows, ${(file.length / 1048576).toFixed(1)} MB of CSV; load average ${loadAverage()}`)
for (let round = 0; round < 2; round++) {
  for (const [name, make] of settings) {
    const cpu0 = process.cpuUsage()
    const out = await new Promise<number>((resolve) => {
      let bytes = 0
      const z = make()
      z.on('data', (c: Buffer) => (bytes += c.length))
      z.on('end', () => resolve(bytes))
      for (const w of writes) z.write(w)
      z.end()
    })
    const cpu = process.cpuUsage(cpu0)
    console.log(`${name.padEnd(46)} ${(out / 1048576).toFixed(2)} MB, ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(4)} ms CPU`)
  }
}
