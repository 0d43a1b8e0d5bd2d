import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../models/embedded.ts'

/**
 * A real server process (node server/index.ts) on the test database, so a test can kill -9 it the
 * way a crash would. Its workers run (JOBS_ENABLED=1); `env` adds vendor URLs and the like.
 */
export async function startChildServer(databaseUrl: string, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; output: () => string; kill(signal?: NodeJS.Signals): Promise<void> }> {
  const port = await freePort()
  let out = ''
  const child = spawn(process.execPath, [path.resolve('server/index.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(os.tmpdir(), 'datahub-child'),
      JOBS_ENABLED: '1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      SESSION_SECRET: 'child-session-secret-that-is-long-enough-000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`child server exited (${child.exitCode}):\n${out}`)
    try {
      if ((await fetch(`${url}/api/settings`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`child server did not start:\n${out}`)
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
      }),
  }
}
