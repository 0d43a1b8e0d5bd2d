import { expect } from 'chai'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { freePort } from '../../models/embedded.ts'
import { testClusterDir } from '../helpers/server.ts'

const MAX_LINES = 40

/** `npm start` on a fresh clone: scripts/start.ts with nothing configured, on a new DATA_DIR (the build present). */
async function firstStart(dataDir: string): Promise<{ lines: string[]; url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  // Nothing from the test run's environment (NODE_ENV=test and the like): a clone has no .env.
  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? '/tmp',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(await freePort())
  }
  const child = spawn(process.execPath, [path.resolve('scripts/start.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  const deadline = Date.now() + 150_000
  while (!/Data Hub is listening/.test(out)) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${out}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`npm start did not listen:\n${out}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const lines = out
    .slice(0, out.indexOf('\n', out.indexOf('Data Hub is listening')) + 1)
    .split('\n')
    .slice(0, -1)
  return { lines, url: `http://127.0.0.1:${port}`, stop }
}

describe('the first npm start', () => {
  it(`says what a person needs in at most ${MAX_LINES} lines before it serves`, async function () {
    this.timeout(180_000)
    const dataDir = testClusterDir(`first-start-${process.pid}`)
    const run = await firstStart(dataDir)
    try {
      const text = run.lines.join('\n')
      expect(run.lines.length, text).to.be.at.most(MAX_LINES)
      // Where the data lives, the simulators in use, the admin's first password, how to change the sample prices, the URL.
      expect(text).to.include(path.join(dataDir, 'pg'))
      expect(text).to.match(/simulators in use: payments \(approve at \/simulator\/phone\); data delivery/)
      expect(text).to.match(/Email: {4}admin@datahub\.local\n {2}Password: \S{12,}/)
      expect(text).to.include('/admin/packages')
      expect(text).to.match(/"url":"http:\/\/localhost:\d+","msg":"Data Hub is listening"/)
      expect((await fetch(`${run.url}/api/settings`)).status).to.equal(200)
    } finally {
      await run.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
