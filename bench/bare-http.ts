// Baseline: a bare node:http server answering the same JSON bytes as the API, per path
// (BENCH_BODIES: {"/api/settings": "...", ...}; BENCH_BODY: one body for every path).
import http from 'node:http'

const bodies: Record<string, string> = process.env.BENCH_BODIES ? JSON.parse(process.env.BENCH_BODIES) : {}
const fallback = process.env.BENCH_BODY ?? '{}'
http
  .createServer((req, res) => {
    const body = bodies[req.url ?? ''] ?? fallback
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
    res.end(body)
  })
  .listen(Number(process.env.PORT ?? 3101), '127.0.0.1')
