import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'

/**
 * The baseline, in this process and round: the floor of the same work with no app. Per order one
 * committed UPDATE on a plain pg pool (the settlement's one durable write; a table of the bench's own,
 * waiting for the WAL flush like a settlement), then one POST to a bare node:http server standing in
 * for the vendor, `atOnce` at a time. Latency: commit to the vendor's receipt.
 */
export async function bareBaseline(o: { dbUrl: string; orders: number; atOnce: number; now: () => number }) {
  const { dbUrl, orders, atOnce, now } = o
  const pool = new pg.Pool({ connectionString: dbUrl, max: atOnce })
  await pool.query('DROP TABLE IF EXISTS bench_bare_orders; CREATE TABLE bench_bare_orders (id int PRIMARY KEY, paid boolean NOT NULL DEFAULT false)')
  await pool.query('INSERT INTO bench_bare_orders (id) SELECT g FROM generate_series(1, $1::int) g', [orders])
  const received = new Map<number, number>()
  const vendorServer = http.createServer((req, res) => {
    received.set(Number(req.url!.slice(1)), now())
    req.resume()
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"accepted"}'))
  })
  await new Promise<void>((resolve) => vendorServer.listen(0, '127.0.0.1', resolve))
  const port = (vendorServer.address() as AddressInfo).port
  const agent = new http.Agent({ keepAlive: true, maxSockets: atOnce })
  const call = (id: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: `/${id}`, method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) =>
        res.resume().on('end', resolve)
      )
      req.on('error', reject)
      req.end(JSON.stringify({ msisdn: '0240000000', bundle: 'MTN-1GB', reference: `bench-${id}` }))
    })
  const committed = new Map<number, number>()
  const started = performance.now()
  let next = 1
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next <= orders) {
        const id = next++
        await pool.query('UPDATE bench_bare_orders SET paid = true WHERE id = $1', [id])
        committed.set(id, now())
        await call(id)
      }
    })
  )
  const secs = (performance.now() - started) / 1000
  agent.destroy()
  await new Promise((resolve) => vendorServer.close(resolve))
  await pool.query('DROP TABLE bench_bare_orders')
  await pool.end()
  const lat = [...committed].map(([id, at]) => received.get(id)! - at).sort((a, b) => a - b)
  const pctOf = (p: number) => Math.round(lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]!)
  return { perSecond: orders / secs, p50: pctOf(50), p95: pctOf(95), p99: pctOf(99) }
}
