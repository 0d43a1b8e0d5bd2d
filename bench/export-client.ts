// The HTTP client of bench/backoffice.ts's export runs, in a process of its own, so that the
// server's CPU and memory are measured without the client's (decompressing, counting lines).
//
// Started by the bench with the request in EXPORT_CLIENT (JSON: url, headers). It prints
// {"ready":true}, waits for a line on stdin, sends the request, reads the whole body and prints one
// JSON line: status, encoding, time to first byte and to the end (s), bytes on the wire and
// decoded, lines, its own CPU (s), and the error if the download broke. With `save` (a path, on
// /dev/shm: memory, not disk) it also writes the decoded file there, for the bare node:http baseline
// to send the very same bytes.
import fs from 'node:fs'
import http from 'node:http'
import { createInterface } from 'node:readline'
import zlib from 'node:zlib'

const { url, headers, save } = JSON.parse(process.env.EXPORT_CLIENT ?? '{}') as { url: string; headers: Record<string, string>; save?: string }
const saved = save ? fs.openSync(save, 'w') : undefined
const input = createInterface({ input: process.stdin })
console.log(JSON.stringify({ ready: true }))
await new Promise<void>((resolve) => input.once('line', () => resolve()))
input.close()

const cpu0 = process.cpuUsage()
const t0 = performance.now()
const result = await new Promise<Record<string, unknown>>((resolve) => {
  let ttfb = 0
  let wire = 0
  let bytes = 0
  let lines = 0
  const done = (res: http.IncomingMessage | undefined, error?: unknown) =>
    resolve({
      status: res?.statusCode ?? 0,
      encoding: res?.headers['content-encoding'] ?? 'identity',
      ttfb,
      secs: (performance.now() - t0) / 1000,
      wire,
      bytes,
      lines,
      error: error ? String(error) : undefined
    })
  const req = http.request(url, { method: 'POST', headers }, (res) => {
    // The server sends its headers with the first rows: time to first byte.
    ttfb = (performance.now() - t0) / 1000
    res.on('data', (c: Buffer) => (wire += c.length))
    const enc = res.headers['content-encoding']
    const body = enc === 'br' ? res.pipe(zlib.createBrotliDecompress()) : enc === 'gzip' ? res.pipe(zlib.createGunzip()) : res
    body.on('data', (c: Buffer) => {
      bytes += c.length
      if (saved !== undefined) fs.writeSync(saved, c)
      for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++
    })
    body.on('end', () => done(res))
    body.on('error', (e) => done(res, e))
    res.on('aborted', () => done(res, new Error('the server broke the download')))
    res.on('error', (e) => done(res, e))
  })
  req.on('error', (e) => done(undefined, e))
  req.end()
})
const cpu = process.cpuUsage(cpu0)
if (saved !== undefined) fs.closeSync(saved)
console.log(JSON.stringify({ ...result, cpu: (cpu.user + cpu.system) / 1e6 }))
