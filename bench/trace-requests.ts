// Preload that writes, per HTTP request, where its time went: high-resolution marks from the request's
// arrival (headers parsed) to its last byte handed to the socket and a little after, one JSON line a request:
//   TRACE_REQUESTS=/tmp/trace.jsonl node --import ./bench/trace-requests.ts main.ts
// Marks: `body` (the request's body fully read), `> <middleware>` (each Express layer entered), `pool?`/`pool!`
// (a pool connection asked for / handed over), `sql> <text>`/`sql< <text>` (a statement sent / answered),
// `timer <ms>`/`timer fired` and `immediate`/`immediate ran` (set in the request's async context), `head`
// (headers written), `end` (res.end called), `finish` (the last byte handed to the kernel). Marks taken after
// `finish` (writes the answer did not wait for) are kept for 100 ms. bench/order-phases.ts reads the file.
// A measuring aid for bench runs by hand; never loaded by the app itself.
import { AsyncLocalStorage } from 'node:async_hooks'
import { appendFileSync } from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'

const file = process.env.TRACE_REQUESTS
type Trace = { method: string; url: string; at: number; t0: bigint; marks: [number, string][]; done: boolean }
const als = new AsyncLocalStorage<Trace>()
const mark = (label: string, trace = als.getStore()) => {
  if (trace) trace.marks.push([Number(process.hrtime.bigint() - trace.t0) / 1e6, label])
}

if (file) {
  const require = createRequire(import.meta.url)
  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args)
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse]
    const trace: Trace = { method: req.method ?? '', url: req.url ?? '', at: Date.now(), t0: process.hrtime.bigint(), marks: [], done: false }
    req.once('end', () => mark('body', trace))
    res.once('finish', () => {
      mark('finish', trace)
      setTimeout(() => appendFileSync(file, `${JSON.stringify({ method: trace.method, url: trace.url, at: trace.at, marks: trace.marks })}\n`), 100).unref()
    })
    return als.run(trace, () => emit.call(this, event, ...args))
  } as typeof http.Server.prototype.emit

  const writeHead = http.ServerResponse.prototype.writeHead
  http.ServerResponse.prototype.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    mark(`head ${this.getHeader('content-encoding') ?? 'identity'}`)
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args)
  } as typeof writeHead
  const end = http.ServerResponse.prototype.end
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, ...args: unknown[]) {
    mark('end')
    return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args)
  } as typeof end

  // Express's own Layer, reached through a router of its (the package that holds it is express's, not ours).
  const probe = (require('express') as { Router: () => { use: (fn: unknown) => void; stack: object[] } }).Router()
  probe.use(() => {})
  const Layer = { prototype: Object.getPrototypeOf(probe.stack[0]) as { handleRequest: (...a: unknown[]) => unknown } }
  const handle = Layer.prototype.handleRequest
  Layer.prototype.handleRequest = function (this: { name?: string }, ...args: unknown[]) {
    mark(`> ${this.name || 'anonymous'}`)
    return handle.apply(this, args)
  }

  const pg = require('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } }
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (...args: unknown[]) {
    const trace = als.getStore()
    if (!trace) return query.apply(this, args)
    const q = args[0] as string | { text?: string }
    const text = (typeof q === 'string' ? q : (q?.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 60)
    mark(`sql> ${text}`, trace)
    const cb = args.findIndex((a) => typeof a === 'function')
    if (cb >= 0) {
      const done = args[cb] as (...r: unknown[]) => unknown
      args[cb] = (...r: unknown[]) => {
        mark(`sql< ${text}`, trace)
        return done(...r)
      }
      return query.apply(this, args)
    }
    const out = query.apply(this, args) as { then?: (f: () => void, r: () => void) => unknown } | undefined
    const answered = () => mark(`sql< ${text}`, trace)
    if (out && typeof out.then === 'function') out.then(answered, answered)
    return out
  }

  const Manager = require('sequelize/lib/dialects/abstract/connection-manager') as {
    prototype: { getConnection: (...a: unknown[]) => Promise<unknown> }
  }
  const getConnection = Manager.prototype.getConnection
  Manager.prototype.getConnection = async function (...args: unknown[]) {
    mark('pool?')
    const c = await getConnection.apply(this, args)
    mark('pool!')
    return c
  }

  const timeout = globalThis.setTimeout
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
    const trace = als.getStore()
    if (!trace || trace.marks.at(-1)?.[1] === 'finish') return timeout(fn, ms, ...rest)
    mark(`timer ${ms ?? 0}`, trace)
    return timeout(
      (...a: unknown[]) => {
        mark('timer fired', trace)
        fn(...a)
      },
      ms,
      ...rest
    )
  }) as typeof setTimeout
  const immediate = globalThis.setImmediate
  globalThis.setImmediate = ((fn: (...a: unknown[]) => void, ...rest: unknown[]) => {
    const trace = als.getStore()
    if (!trace) return immediate(fn, ...rest)
    mark('immediate', trace)
    return immediate(
      (...a: unknown[]) => {
        mark('immediate ran', trace)
        fn(...a)
      },
      ...rest
    )
  }) as typeof setImmediate
}
