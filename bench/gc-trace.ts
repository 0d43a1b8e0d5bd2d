// Preload for bench/scavenge-survivors.ts: V8's garbage-collector trace (one name=value line per collection, on
// stdout) in the server, and a line `MARK <url>` for each request whose URL holds `__mark`, so the trace can be cut
// by what the bench sent between two marks. NODE_OPTIONS refuses --trace-gc-nvp; V8 takes it at run time.
// GC_TRACE_FLAGS: other V8 flags set with it (e.g. `--min-semi-space-size=1`, also refused by NODE_OPTIONS).
// A measuring aid for bench runs; never loaded by the app itself.
import dc from 'node:diagnostics_channel'
import type { IncomingMessage } from 'node:http'
import v8 from 'node:v8'

if (process.argv[1]?.endsWith('main.ts')) {
  v8.setFlagsFromString(`--trace-gc-nvp ${process.env.GC_TRACE_FLAGS ?? ''}`)
  dc.subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage }
    if (request.url?.includes('__mark')) process.stdout.write(`MARK ${request.url}\n`)
  })
}
