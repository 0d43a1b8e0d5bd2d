// Baseline: a bare node:http server answering the same bytes as the app, per path
// (BENCH_BODIES: {"/api/settings": "...", ...} JSON text; BENCH_WIRE: {"/agent/dashboard": {body (base64),
// encoding, type}} a page's bytes as they went over the wire; BENCH_BODY: one body for every other path).
import http from 'node:http'

const bodies: Record<string, string> = process.env.BENCH_BODIES ? JSON.parse(process.env.BENCH_BODIES) : {}
const wire: Record<string, { body: string; encoding?: string; type?: string }> = process.env.BENCH_WIRE ? JSON.parse(process.env.BENCH_WIRE) : {}
const fallback = process.env.BENCH_BODY ?? '{}'
const answers = new Map<string, { body: Buffer; headers: Record<string, string | number> }>()
for (const [p, w] of Object.entries(wire)) {
  const body = Buffer.from(w.body, 'base64')
  answers.set(p, {
    body,
    headers: { 'Content-Type': w.type ?? 'text/html', ...(w.encoding ? { 'Content-Encoding': w.encoding } : {}), 'Content-Length': body.length }
  })
}
http
  .createServer((req, res) => {
    const ready = answers.get(req.url ?? '')
    if (ready) {
      res.writeHead(200, ready.headers)
      return void res.end(ready.body)
    }
    const body = bodies[req.url ?? ''] ?? fallback
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
    res.end(body)
  })
  .listen(Number(process.env.PORT ?? 3101), '127.0.0.1')
