// `npm run bench`: HTTP figures for the public pages (visitors and signed in) and the two hottest
// JSON endpoints on the production build and the embedded database, next to baselines measured the
// same way in the same run: a bare node:http server answering the same JSON bytes, and the
// in-process render rate of the same page doing the same work (bench/render-rate.ts). Each ratio is
// printed with both of its sides. Prints figures; asserts nothing.
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_PORT (3100; +1 for the bare server), BENCH_PG_PORT (54330)
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BENCH_ENV, ROOT, fmt, load, startChild, stopChild, type Figures } from './lib.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const PORT = process.env.BENCH_PORT ?? '3100'
const BARE_PORT = String(Number(PORT) + 1)

if (!fs.existsSync(path.join(ROOT, 'dist/server/entry.mjs')) || process.env.BENCH_BUILD) {
  spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: ROOT, stdio: 'inherit' })
}

const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')
console.log(`Data Hub HTTP benchmark: ${seconds}s per target, ${connections} connections, node ${process.version}, ${new Date().toISOString()}, load ${loadavg()}`)
const server = await startChild('server/index.ts', { ...BENCH_ENV, PORT }, `http://127.0.0.1:${PORT}/readyz`)
const base = `http://127.0.0.1:${PORT}`

// A signed-in browser: the admin's session cookie (pages render for them on every request).
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: BENCH_ENV.ADMIN_EMAIL, password: BENCH_ENV.ADMIN_PASSWORD }),
})
const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
if (!login.ok || !cookie) throw new Error(`bench sign-in failed: ${login.status}`)

const browserish = { 'user-agent': 'Mozilla/5.0', accept: 'text/html' }
const figures: Record<string, Figures> = {}
const run = async (name: string, url: string, headers?: Record<string, string>) => {
  figures[name] = await load(url, { seconds, connections, headers })
}
await run('GET / (visitor)', `${base}/`, browserish)
await run('GET /data-services (visitor)', `${base}/data-services`, browserish)
await run('GET / (signed in)', `${base}/`, { ...browserish, cookie })
await run('GET /api/settings', `${base}/api/settings`)
await run('GET /api/packages', `${base}/api/packages`)

// The bare server answers exactly the bytes the API answered, one body per path.
const bodies = { '/api/settings': await (await fetch(`${base}/api/settings`)).text(), '/api/packages': await (await fetch(`${base}/api/packages`)).text() }
const bare = await startChild('bench/bare-http.ts', { PORT: BARE_PORT, BENCH_BODIES: JSON.stringify(bodies) }, `http://127.0.0.1:${BARE_PORT}/api/settings`)
await run('bare node:http /api/settings JSON', `http://127.0.0.1:${BARE_PORT}/api/settings`)
await run('bare node:http /api/packages JSON', `http://127.0.0.1:${BARE_PORT}/api/packages`)
await stopChild(bare)

// The in-process render rate of each page, measured while the server is idle, on the same database.
const renders: Record<string, number> = {}
for (const url of ['/', '/data-services']) {
  const r = spawnSync(process.execPath, ['bench/render-rate.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...BENCH_ENV, BENCH_SECONDS: String(seconds), BENCH_CONNECTIONS: String(connections), BENCH_URL: url },
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`render-rate ${url} failed: ${r.stderr}`)
  renders[url] = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}').rendersPerSecond as number
}
await stopChild(server)

const pad = (s: string) => s.padEnd(36)
console.log('')
for (const [name, f] of Object.entries(figures)) console.log(`${pad(name)}${fmt(f)}`)
for (const [url, n] of Object.entries(renders)) console.log(`${pad(`in-process render ${url}`)}${n.toFixed(0).padStart(7)} renders/s (${connections} in flight, no HTTP)`)
console.log('')
const ratio = (a: string, av: number, b: string, bv: number) =>
  console.log(`ratio ${a} / ${b}: ${av.toFixed(0)} / ${bv.toFixed(0)} = ${(av / bv).toFixed(2)}`)
ratio('GET / (visitor)', figures['GET / (visitor)']!.reqs, 'in-process render /', renders['/']!)
ratio('GET /data-services (visitor)', figures['GET /data-services (visitor)']!.reqs, 'in-process render /data-services', renders['/data-services']!)
ratio('GET / (signed in)', figures['GET / (signed in)']!.reqs, 'in-process render /', renders['/']!)
ratio('GET /api/settings', figures['GET /api/settings']!.reqs, 'bare node:http', figures['bare node:http /api/settings JSON']!.reqs)
ratio('GET /api/packages', figures['GET /api/packages']!.reqs, 'bare node:http', figures['bare node:http /api/packages JSON']!.reqs)
console.log(`load average at the end: ${loadavg()}`)
