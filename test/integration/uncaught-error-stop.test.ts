import { expect } from 'chai'
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../models/embedded.ts'

/**
 * Code run in the shop's process before main.ts (`--import`): once the shop answers /readyz, `fire`
 * runs, as a timer's throw or a promise nobody handles would in the shop's own code.
 */
function preload(fire: string): string {
  const code = `
    let fired = false
    const poll = setInterval(() => {
      fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => {
        if (!r.ok || fired) return
        fired = true
        clearInterval(poll)
        ${fire}
      }, () => {})
    }, 100)`
  return `--import=data:text/javascript,${encodeURIComponent(code)}`
}

/** The shop being run, killed after a test that failed while it was still up. */
let running: ChildProcess | undefined

interface Run {
  code: number | null
  lines: Array<Record<string, unknown>>
  out: string
}

/** `node main.ts` as a supervisor starts it (production build, its own embedded PostgreSQL in `dataDir`), until it exits. */
async function runShop(dataDir: string, pgPort: number, fire: string, env: Record<string, string> = {}): Promise<Run> {
  const port = await freePort()
  const child = (running = spawn(process.execPath, [preload(fire), path.resolve('main.ts')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.homedir(),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      SESSION_SECRET: 'uncaught-error-test-secret-0123456789',
      SHUTDOWN_DRAIN_MS: '0',
      LOG_LEVEL: 'info',
      ...env
    },
    stdio: ['ignore', 'pipe', 'pipe']
  }))
  let stdout = ''
  let out = ''
  child.stdout!.on('data', (d) => {
    stdout += d
    out += d
  })
  child.stderr!.on('data', (d) => (out += d))
  // Without the shop's own handlers this never settles: the process goes on serving (the test's timeout fails it).
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
  const lines = stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  return { code, lines, out }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

describe('an uncaught error in the started shop', function () {
  this.timeout(120_000)
  let dataDir: string
  let pgPort: number

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h58c-uncaught-'))
    pgPort = await freePort()
  })

  afterEach(() => {
    if (running && running.exitCode === null && !running.signalCode) running.kill('SIGKILL')
  })

  after(async () => {
    // A failed run may leave its PostgreSQL up: stop it before the folder goes.
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid')
    if (fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
      try {
        process.kill(pid, 'SIGQUIT')
        for (let i = 0; i < 100; i++) {
          process.kill(pid, 0)
          await new Promise((r) => setTimeout(r, 100))
        }
      } catch {
        /* gone */
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** The run stopped as on SIGTERM, through its graceful stop rather than the forced exit, with its PostgreSQL stopped. */
  async function expectStoppedForError(run: Run, message: string, kind: string) {
    expect(run.code, run.out).to.equal(1)
    const fatal = run.lines.filter((l) => l.level === 60)
    expect(fatal, run.out).to.have.length(1)
    expect(fatal[0].kind).to.equal(kind)
    expect((fatal[0].err as { message: string }).message).to.equal(message)
    expect((fatal[0].err as { stack: string }).stack).to.include(message)
    // Logged once, through pino: nothing else prints it outside the log (as Vike's own handler did).
    expect(
      run.out.split('\n').filter((l) => l.includes(message)),
      run.out
    ).to.have.length(1)
    expect(run.lines.map((l) => l.msg)).to.include.members(['shutting down', 'stopped'])
    expect(run.out).not.to.include('shutdown took too long')
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), 'the embedded PostgreSQL is still running').to.equal(false)
    expect(await portFree(pgPort)).to.equal(true)
  }

  it('a throw from a timer: one fatal log line, the graceful stop, the embedded PostgreSQL stopped, exit 1', async () => {
    const run = await runShop(dataDir, pgPort, `setTimeout(() => { throw new Error('boom from a timer') }, 0)`)
    await expectStoppedForError(run, 'boom from a timer', 'uncaughtException')
  })

  it('a rejected promise with no handler: the same as an uncaught exception', async () => {
    const run = await runShop(dataDir, pgPort, `Promise.reject(new Error('a rejection nobody handled'))`)
    await expectStoppedForError(run, 'a rejection nobody handled', 'unhandledRejection')
  })

  it('a second error while stopping is logged and starts no second stop', async () => {
    const fire = `setTimeout(() => { throw new Error('the first error') }, 0)
      setTimeout(() => { throw new Error('a second error') }, 300)`
    // The drain keeps the stop going past the second error.
    const run = await runShop(dataDir, pgPort, fire, { SHUTDOWN_DRAIN_MS: '1500' })
    await expectStoppedForError(run, 'the first error', 'uncaughtException')
    const second = run.lines.filter((l) => (l.err as { message?: string } | undefined)?.message === 'a second error')
    expect(second.map((l) => [l.level, l.msg])).to.deep.equal([[50, 'another uncaught error while stopping']])
    expect(run.lines.filter((l) => l.msg === 'shutting down')).to.have.length(1)
    expect(run.lines.filter((l) => l.msg === 'stopped')).to.have.length(1)
  })
})
