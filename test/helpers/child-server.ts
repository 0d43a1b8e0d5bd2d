import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../models/embedded.ts'

export interface ChildServer {
  url: string
  child: ChildProcess
  output: () => string
  kill(signal?: NodeJS.Signals): Promise<void>
}

/**
 * A real server process (node main.ts) on the test database, so a test can kill -9 it the
 * way a crash would. Its workers run (JOBS_ENABLED=1); `env` adds vendor URLs and the like.
 */
export async function startChildServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const port = await freePort()
  return spawnServer(path.resolve('main.ts'), port, {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(os.tmpdir(), 'datahub-child'),
    JOBS_ENABLED: '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    SESSION_SECRET: 'child-session-secret-that-is-long-enough-000',
    ...env
  })
}

/**
 * The shop as `npm start` runs it on a fresh clone (scripts/start.ts: production, its own embedded
 * PostgreSQL and session secret in `dataDir`), with none of the test run's environment: only `env`
 * is added. Stop it with SIGTERM, so its PostgreSQL stops too.
 */
export async function startShopLikeNpmStart(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const port = await freePort()
  return spawnServer(path.resolve('scripts/start.ts'), port, {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.homedir(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    ...env
  })
}

async function spawnServer(script: string, port: number, env: NodeJS.ProcessEnv): Promise<ChildServer> {
  let out = ''
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`child server exited (${child.exitCode}):\n${out}`)
    try {
      if ((await fetch(`${url}/api/settings`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`child server did not start:\n${out}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    child,
    output: () => out,
    kill: (signal: NodeJS.Signals = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode) return resolve()
        child.once('exit', () => resolve())
        child.kill(signal)
      })
  }
}
