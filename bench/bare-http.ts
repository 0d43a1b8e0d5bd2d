// Baseline: a bare node:http server answering the same JSON as GET /api/settings.
import http from 'node:http'

const body = process.env.BENCH_BODY ?? '{}'
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
    res.end(body)
  })
  .listen(Number(process.env.PORT ?? 3101), '127.0.0.1')
