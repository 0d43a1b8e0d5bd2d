// One measured `POST /api/orders/export` for bench/backoffice.ts: the server is this process, the
// HTTP client another one (bench/export-client.ts), so each side's CPU and memory are its own.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { pipeline } from 'node:stream'
import zlib from 'node:zlib'

export interface ExportFigures {
  rows: number
  status: number
  encoding: string
  secs: number
  ttfb: number
  mb: number
  wireMb: number
  /** CPU per row: the server (this process), the bench client, PostgreSQL (its backends + background processes). */
  us: { server: number; serverMain: number; client: number; pg: number; pgBackends: number }
  gcSecs: number
  memory: { rss: [number, number]; heap: [number, number]; live: [number, number]; buffers: number }
  load: string
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

interface ClientResult {
  status: number
  encoding: string
  ttfb: number
  secs: number
  wire: number
  bytes: number
  lines: number
  cpu: number
  error?: string
}

/** Starts the client process and resolves once it is ready to send (Node's start-up is not measured). */
async function startClient(url: string, headers: Record<string, string>, save?: string) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'export-client.ts')], {
    env: { ...process.env, EXPORT_CLIENT: JSON.stringify({ url, headers, save }) },
    stdio: ['pipe', 'pipe', 'inherit']
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const next = async () => {
    const { value, done } = await lines.next()
    if (done) throw new Error(`the export client exited (${child.exitCode})`)
    return JSON.parse(value as string) as ClientResult & { ready?: boolean }
  }
  await next() // {"ready":true}
  return { child, go: () => child.stdin!.write('go\n'), result: next }
}

/**
 * Streams one export and samples this (the server's) process meanwhile: RSS, heap used (garbage
 * included) and external + array buffers every 50 ms, and the live heap after a forced full GC
 * every `gcMs` (0: never; their time is reported and left out of the server's CPU).
 */
export async function measureExport(opts: {
  url: string
  headers: Record<string, string>
  pgCpu: () => { backends: number; background: number }
  gcMs: number
  /** Where the client writes the decoded file (for the bare baseline). */
  save?: string
}): Promise<ExportFigures> {
  const gc = globalThis.gc
  if (!gc) throw new Error('run the bench with node --expose-gc')
  const client = await startClient(opts.url, opts.headers, opts.save)
  gc()
  const before = process.memoryUsage()
  const peak = { rss: before.rss, heap: before.heapUsed, live: before.heapUsed, buffers: before.external + before.arrayBuffers }
  let gcSecs = 0
  const sample = () => {
    const m = process.memoryUsage()
    peak.rss = Math.max(peak.rss, m.rss)
    peak.heap = Math.max(peak.heap, m.heapUsed)
    peak.buffers = Math.max(peak.buffers, m.external + m.arrayBuffers)
  }
  const sampler = setInterval(sample, 50)
  const collector =
    opts.gcMs > 0
      ? setInterval(() => {
          sample() // garbage included, just before it is collected
          const t = process.threadCpuUsage() // this thread's CPU: wall time would count waiting for a busy CPU too
          gc()
          const d = process.threadCpuUsage(t)
          gcSecs += (d.user + d.system) / 1e6
          peak.live = Math.max(peak.live, process.memoryUsage().heapUsed)
        }, opts.gcMs)
      : undefined
  const cpu0 = process.cpuUsage()
  const main0 = process.threadCpuUsage()
  const pg0 = opts.pgCpu()
  client.go()
  const r = await client.result()
  const cpu = process.cpuUsage(cpu0)
  const main = process.threadCpuUsage(main0)
  const pg1 = opts.pgCpu()
  const pgBackends = pg1.backends - pg0.backends
  const pgCpu = pgBackends + pg1.background - pg0.background
  clearInterval(sampler)
  if (collector) clearInterval(collector)
  sample()
  await new Promise((resolve) => client.child.once('exit', resolve))
  if (r.error) throw new Error(`export download failed: ${r.error}`)
  const rows = Math.max(0, r.lines - 1) // the header line
  const perRow = (s: number) => (s / Math.max(1, rows)) * 1e6
  return {
    rows,
    status: r.status,
    encoding: r.encoding,
    secs: r.secs,
    ttfb: r.ttfb,
    mb: r.bytes / 1048576,
    wireMb: r.wire / 1048576,
    us: {
      server: perRow((cpu.user + cpu.system) / 1e6 - gcSecs),
      serverMain: perRow((main.user + main.system) / 1e6 - gcSecs),
      client: perRow(r.cpu),
      pg: perRow(pgCpu),
      pgBackends: perRow(pgBackends)
    },
    gcSecs,
    memory: { rss: [before.rss, peak.rss], heap: [before.heapUsed, peak.heap], live: [before.heapUsed, peak.live], buffers: peak.buffers },
    load: loadAverage()
  }
}

/**
 * The baseline, in this same process: a bare node:http server that sends a saved export file (the very
 * bytes the app sent, read from /dev/shm in 64 KB chunks) through the encoder the app's export uses
 * (brotli quality 1 when the client takes br, else gzip level 1, else none), with back-pressure. What
 * node, zlib and the loopback cost for these bytes with no database and no app: the ceiling the app's
 * rows/s is read against.
 */
export async function bareExportServer(file: () => string) {
  const server = http.createServer((req, res) => {
    const accepts = String(req.headers['accept-encoding'] ?? '')
    const encoding = accepts.includes('br') ? 'br' : accepts.includes('gzip') ? 'gzip' : 'identity'
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }) })
    const source = fs.createReadStream(file(), { highWaterMark: 65536 })
    const done = () => {}
    if (encoding === 'identity') return void pipeline(source, res, done)
    const encoder = encoding === 'br' ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }) : zlib.createGzip({ level: 1 })
    pipeline(source, encoder, res, done)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.csv`, close: () => new Promise((resolve) => server.close(resolve)) }
}

const mib = (b: number) => (b / 1048576).toFixed(0)
const n = (x: number) => Math.round(x).toLocaleString('en')

export function printExport(label: string, f: ExportFigures) {
  const streaming = f.secs - f.ttfb
  console.log(
    `${label}: ${f.status}, ${n(f.rows)} rows, ${f.mb.toFixed(1)} MB CSV (${f.wireMb.toFixed(1)} MB ${f.encoding} on the wire) in ${f.secs.toFixed(2)} s = ${n(f.rows / f.secs)} rows/s; ` +
      `first byte after ${f.ttfb.toFixed(2)} s, then streaming ${streaming.toFixed(2)} s = ${n(f.rows / streaming)} rows/s`
  )
  const total = f.us.server + f.us.client + f.us.pg
  console.log(
    `  CPU per row: server (node) ${f.us.server.toFixed(1)} us (its main thread ${f.us.serverMain.toFixed(1)}), PostgreSQL ${f.us.pg.toFixed(1)} us (its connections ${f.us.pgBackends.toFixed(1)}, background ${(f.us.pg - f.us.pgBackends).toFixed(1)}), bench client (node) ${f.us.client.toFixed(1)} us; total ${total.toFixed(1)} us` +
      (f.gcSecs ? ` (server without the ${f.gcSecs.toFixed(2)} s of forced GCs for the live heap sample)` : '')
  )
  console.log(
    `  server memory: RSS ${mib(f.memory.rss[0])} -> peak ${mib(f.memory.rss[1])} MB, heap used ${mib(f.memory.heap[0])} -> peak ${mib(f.memory.heap[1])} MB, ` +
      `live heap after forced GC ${mib(f.memory.live[0])} -> peak ${mib(f.memory.live[1])} MB, external + buffers peak ${mib(f.memory.buffers)} MB; load average ${f.load}`
  )
}
