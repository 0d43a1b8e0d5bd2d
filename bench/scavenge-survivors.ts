// What survives the server's young-generation collections (scavenges), per kind of request sent one after another:
// a scavenge's pause grows with the bytes it copies, so the bytes a request leaves alive past one are its share of
// the pauses. For each kind: 50 requests not counted, then N (300) between two marks, the V8 trace of the
// scavenges between them summed (bench/gc-trace.ts). Production server, embedded PostgreSQL. Prints figures.
//   KINDS (healthz,packages,badOrder,visitor,wallet), N, BENCH_PORT (4520), BENCH_PG_PORT; a small young generation
//   makes many scavenges, so even short runs sum enough of them:
//   NODE_OPTIONS=--max-semi-space-size=1 GC_TRACE_FLAGS=--min-semi-space-size=1 node bench/scavenge-survivors.ts
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import pg from 'pg'
import { BENCH_DB_URL, BENCH_ENV, benchResellerKey, startChild, stopChild } from './lib.ts'

const PORT = process.env.BENCH_PORT ?? '4520'
const base = `http://127.0.0.1:${PORT}`
const N = Number(process.env.N ?? 300)
const trace: string[] = []
let tail = ''
const server = await startChild(
  'main.ts',
  { ...BENCH_ENV, PORT, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ./bench/gc-trace.ts` },
  `${base}/readyz`,
  (c) => {
    const lines = (tail + c.toString()).split('\n')
    tail = lines.pop()!
    trace.push(...lines.filter((l) => l.startsWith('MARK ') || l.includes(' gc=')))
  }
)
const db = new pg.Client({ connectionString: BENCH_DB_URL })
await db.connect()
const apiKey = await benchResellerKey(db, base)
const [pkg] = (await (await fetch(`${base}/api/packages`)).json()) as { id: number }[]
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const send = (method: string, p: string, headers: Record<string, string> = {}, body = '') =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${base}${p}`,
      { method, agent, headers: { 'accept-encoding': 'gzip, deflate', ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      }
    )
    req.on('error', reject)
    req.end(body)
  })
let n = 0
const phone = () => `024${String(2_000_000 + (n++ % 8_000_000)).padStart(7, '0')}`
const kinds: Record<string, () => Promise<number>> = {
  healthz: () => send('GET', '/healthz'),
  packages: () => send('GET', '/api/packages'),
  readyz: () => send('GET', '/readyz'),
  badOrder: () => send('POST', '/api/orders', { 'content-type': 'application/json' }, JSON.stringify({ packageId: pkg!.id, recipientNumber: 'x' })),
  visitor: () => {
    const p = phone()
    return send(
      'POST',
      '/api/orders',
      { 'content-type': 'application/json' },
      JSON.stringify({ packageId: pkg!.id, recipientNumber: p, payerPhone: p, payerNetwork: 'MTN' })
    )
  },
  wallet: () =>
    send(
      'POST',
      '/api/v1/orders',
      { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'idempotency-key': randomUUID() },
      JSON.stringify({ packageId: pkg!.id, recipientNumber: phone() })
    )
}
for (const k of (process.env.KINDS ?? Object.keys(kinds).join(',')).split(',')) {
  await db.query('DELETE FROM rate_limiter_flexible; DELETE FROM rate_limits')
  for (let i = 0; i < 50; i++) await kinds[k]!()
  await send('GET', `/healthz?__mark=start-${k}`)
  for (let i = 0; i < N; i++) {
    if (i % 40 === 39) await db.query('DELETE FROM rate_limiter_flexible; DELETE FROM rate_limits')
    const s = await kinds[k]!()
    if (s >= 500 || (k !== 'badOrder' && s >= 300)) throw new Error(`${k} ${s}`)
  }
  await send('GET', `/healthz?__mark=end-${k}`)
}
await db.end()
await stopChild(server)

// The scavenges between each kind's two marks; `promoted` are bytes that had survived one scavenge already.
let kind: string | null = null
const sums: Record<string, { n: number; pause: number; max: number; allocated: number; survived: number; promoted: number }> = {}
for (const line of trace) {
  const mark = /^MARK \S*__mark=(start|end)-(\w+)/.exec(line)
  if (mark) kind = mark[1] === 'start' ? mark[2]! : null
  if (!kind || !line.includes(' gc=s ')) continue
  const v = (k: string) => Number(new RegExp(` ${k}=([0-9.]+)`).exec(line)?.[1] ?? 0)
  const s = (sums[kind] ??= { n: 0, pause: 0, max: 0, allocated: 0, survived: 0, promoted: 0 })
  s.n++
  s.pause += v('pause')
  s.max = Math.max(s.max, v('pause'))
  s.allocated += v('allocated')
  s.survived += v('new_space_survived')
  s.promoted += v('promoted')
}
const kb = (b: number) => `${(b / N / 1024).toFixed(1)} KB`
for (const [k, s] of Object.entries(sums))
  console.log(
    `${k.padEnd(9)} ${String(s.n).padStart(4)} scavenges, pauses ${s.pause.toFixed(1)} ms (longest ${s.max.toFixed(1)}); per request: allocated ${kb(s.allocated)}, survived ${kb(s.survived)} (${((100 * s.survived) / s.allocated).toFixed(1)}%), promoted ${kb(s.promoted)}`
  )
