import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import type pg from 'pg'
import { hashSecret } from '../server/lib/crypto.ts'

export const ROOT = path.resolve(import.meta.dirname, '..')
// BENCH_PG_PORT / BENCH_PORT: another free port pair when several benches share the machine.
export const BENCH_ENV = {
  NODE_ENV: 'production',
  DATA_DIR: path.join(ROOT, '.data/bench'),
  EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? '54330',
  LOG_LEVEL: 'warn',
  JOBS_ENABLED: '0',
  ADMIN_EMAIL: 'bench-admin@datahub.local',
  ADMIN_PASSWORD: 'bench-admin-password',
  // production refuses to start without one (server/env.ts)
  SESSION_SECRET: 'bench-session-secret-long-enough-000000000',
  // and, once checker cards are in stock (bench/http.ts puts one there), without this (32 bytes, hex)
  VOUCHER_ENCRYPTION_KEY: '62656e63682d766f75636865722d6b65792d3030303030303030303030303030',
  PAYMENT_PROVIDER: 'simulator'
}
export const BENCH_DB_URL = `postgres://datahub:datahub-local@127.0.0.1:${BENCH_ENV.EMBEDDED_PG_PORT}/datahub`

/**
 * Starts a node script as a child on Node 24 and resolves once it answers `url`. `onStdout` reads what it prints
 * from its start (a pipe nobody reads fills, and the child stops on its next write).
 */
export async function startChild(script: string, env: Record<string, string>, url: string, onStdout?: (chunk: Buffer) => void): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', onStdout ? 'pipe' : 'inherit', 'inherit'] })
  if (onStdout) child.stdout!.on('data', onStdout)
  const until = Date.now() + 90_000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return child
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill('SIGTERM')
  throw new Error(`${script} did not answer ${url}`)
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export interface Figures {
  reqs: number
  p50: number
  p99: number
  errors: number
  non2xx: number /** bytes received per response, headers included */
  bytes: number /** responses in all */
  total?: number
}

export async function load(url: string, opts: { seconds?: number; connections?: number; headers?: Record<string, string> } = {}): Promise<Figures> {
  const r = await autocannon({ url, duration: opts.seconds ?? 10, connections: opts.connections ?? 20, headers: opts.headers })
  return {
    reqs: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    bytes: r.requests.total ? r.throughput.total / r.requests.total : 0,
    total: r.requests.total
  }
}

/** A response's body exactly as it came over the wire (still compressed), base64, with its Content-Encoding and type. */
export function wireBytes(url: string, headers: Record<string, string>): Promise<{ body: string; encoding?: string; type?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`))
          resolve({ body: Buffer.concat(chunks).toString('base64'), encoding: res.headers['content-encoding'], type: res.headers['content-type'] })
        })
      })
      .on('error', reject)
  })
}

export const fmt = (f: Figures) =>
  `${f.reqs.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   ${f.bytes.toFixed(0).padStart(6)} B/resp${f.errors || f.non2xx ? `   (errors ${f.errors}, non-2xx ${f.non2xx})` : ''}`

/** CPU seconds (user + system, all threads) a process has used, from /proc (Linux); NaN elsewhere. */
export function processCpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    // fields after the name: state(0) ppid(1) ... utime(11) stime(12), in clock ticks (100/s)
    return (Number(f[11]) + Number(f[12])) / 100
  } catch {
    return NaN
  }
}

/** CPU seconds of a PostgreSQL cluster: its postmaster and every child (backends, WAL writer, checkpointer...). */
export function postgresCpuSeconds(dataDirectory: string): number {
  const { backends, background } = postgresCpu(dataDirectory)
  return backends + background
}

/**
 * The same, split: `backends` are the client connections' processes ("postgres: user db host ...",
 * host "[local]" over the Unix socket),
 * `background` the rest (WAL writer, checkpointer, autovacuum, I/O workers) and every child that
 * has ended (autovacuum workers come and go).
 */
export function postgresCpu(dataDirectory: string): { backends: number; background: number } {
  try {
    const postmaster = Number(readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0])
    // The postmaster's own time plus its children that ended (cutime, cstime): a backend that exits
    // between two readings moves from the live sum into these, so the total never goes back.
    const f = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1]!.split(' ')
    let background = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100
    let backends = 0
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue
      try {
        if (Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) !== postmaster) continue
        const cpu = processCpuSeconds(Number(d))
        if (/^postgres: \S+ \S+ (\d|\[local\])/.test(readFileSync(`/proc/${d}/cmdline`, 'utf8'))) backends += cpu
        else background += cpu
      } catch {
        /* gone meanwhile */
      }
    }
    return { backends, background }
  } catch {
    return { backends: NaN, background: NaN }
  }
}

/**
 * The production build served by `scripts/start.ts` on `port` with its own embedded PostgreSQL (a first start
 * makes the sample business and this admin), for the benches that load pages in a browser; `url` instead
 * names a server already up (then nothing is started). `child` is undefined then.
 */
export async function pagesServer(opts: { url?: string; port: string; pgPort: string; dataDir: string; admin: { email: string; password: string } }) {
  if (opts.url) return { base: opts.url.replace(/\/$/, ''), child: undefined }
  const child = await startChild(
    path.join(ROOT, 'scripts/start.ts'),
    {
      NODE_ENV: 'production',
      PORT: opts.port,
      HOST: '127.0.0.1',
      DATA_DIR: path.join(ROOT, opts.dataDir),
      EMBEDDED_PG_PORT: opts.pgPort,
      LOG_LEVEL: 'warn',
      JOBS_ENABLED: '0',
      SESSION_SECRET: 'pages-bench-session-secret-long-enough-0000',
      ADMIN_EMAIL: opts.admin.email,
      ADMIN_PASSWORD: opts.admin.password
    },
    `http://127.0.0.1:${opts.port}/healthz`
  )
  return { base: `http://127.0.0.1:${opts.port}`, child }
}

/**
 * An approved, paid agent with a well-filled wallet, signed in once to make a new reseller API key: each run makes
 * its own, the earlier runs' keys revoked, or the agent's key limit refuses the sixth run.
 */
export async function benchResellerKey(db: pg.Client, base: string): Promise<string> {
  const email = 'bench-orders@datahub.local'
  const password = 'bench-agent-password'
  await db.query(
    `WITH u AS (INSERT INTO users (email, name, password_hash, role) VALUES ($1, 'Bench Orders', $2, 'AGENT')
                    ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash RETURNING id),
                 a AS (INSERT INTO agents (user_id, name, phone, approved, payment_status) SELECT id, 'Bench Orders', '0240000998', true, 'SUCCESS' FROM u
                    ON CONFLICT (user_id) DO UPDATE SET approved = true RETURNING id)
            INSERT INTO wallets (agent_id, balance_pesewas) SELECT id, 1000000000 FROM a ON CONFLICT (agent_id) DO UPDATE SET balance_pesewas = 1000000000`,
    [email, await hashSecret(password)]
  )
  await db.query(
    `UPDATE api_keys SET revoked_at = now() WHERE revoked_at IS NULL
       AND agent_id = (SELECT a.id FROM agents a JOIN users u ON u.id = a.user_id WHERE lower(u.email) = lower($1))`,
    [email]
  )
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password })
  })
  const { csrfToken } = (await login.json()) as { csrfToken: string }
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
  const keyRes = await fetch(`${base}/api/reseller/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken },
    body: JSON.stringify({ name: `bench ${Date.now()}` })
  })
  const apiKey = ((await keyRes.json()) as { key?: string }).key ?? ''
  if (!keyRes.ok || !apiKey) throw new Error(`bench API key failed: ${keyRes.status}`)
  return apiKey
}
