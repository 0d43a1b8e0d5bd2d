// `npm run bench`: HTTP figures for / and GET /api/settings on the production build and the embedded
// database, next to two baselines measured the same way in the same run. Prints figures; asserts nothing.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { BENCH_ENV, ROOT, fmt, load, startChild, stopChild } from './lib.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const PORT = '3100'
const BARE_PORT = '3101'

if (!fs.existsSync(path.join(ROOT, 'dist/server/entry.mjs')) || process.env.BENCH_BUILD) {
  spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: ROOT, stdio: 'inherit' })
}

console.log(`Data Hub HTTP benchmark: ${seconds}s per target, ${connections} connections, node ${process.version}, ${new Date().toISOString()}`)
const server = await startChild('server/index.ts', { ...BENCH_ENV, PORT }, `http://127.0.0.1:${PORT}/readyz`)
const base = `http://127.0.0.1:${PORT}`
const settingsBody = await (await fetch(`${base}/api/settings`)).text()
const bare = await startChild('bench/bare-http.ts', { PORT: BARE_PORT, BENCH_BODY: settingsBody }, `http://127.0.0.1:${BARE_PORT}/`)

const browserish = { 'user-agent': 'Mozilla/5.0', accept: 'text/html' }
const page = await load(`${base}/`, { seconds, connections, headers: browserish })
const api = await load(`${base}/api/settings`, { seconds, connections })
const bareFig = await load(`http://127.0.0.1:${BARE_PORT}/`, { seconds, connections })
await stopChild(bare)

// The in-process render rate is measured while the server is idle, on the same database.
const r = spawnSync(process.execPath, ['bench/render-rate.ts'], { cwd: ROOT, env: { ...process.env, ...BENCH_ENV, BENCH_SECONDS: String(seconds) }, encoding: 'utf8' })
const renders = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}').rendersPerSecond as number
await stopChild(server)

console.log('')
console.log(`GET /               ${fmt(page)}`)
console.log(`GET /api/settings   ${fmt(api)}`)
console.log(`bare node:http JSON ${fmt(bareFig)}`)
console.log(`in-process render   ${renders.toFixed(0).padStart(7)} renders/s (home page, no HTTP)`)
console.log('')
console.log(`ratio page / in-process render : ${(page.reqs / renders).toFixed(2)}`)
console.log(`ratio API / bare node:http     : ${(api.reqs / bareFig.reqs).toFixed(2)}`)
