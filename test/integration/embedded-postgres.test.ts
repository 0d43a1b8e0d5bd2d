import { expect } from 'chai'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { freePort, runningEmbeddedUrl, startEmbedded } from '../../models/embedded.ts'
import { testClusterDir } from '../helpers/server.ts'

const base = path.resolve('.data/test-runs')

async function query(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return (await c.query(sql)).rows
  } finally {
    await c.end()
  }
}

describe('embedded PostgreSQL', function () {
  this.timeout(90_000)
  const dirs: string[] = []
  const dir = (name: string) => {
    const d = testClusterDir(`${name}-${process.pid}-${Date.now()}`)
    dirs.push(d)
    return d
  }
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('says clearly when its port is taken', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1')
    await new Promise((r) => blocker.once('listening', r))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      await startEmbedded({ dir: dir('taken'), port, database: 'x' }).then(
        () => expect.fail('should not start'),
        (err: Error) => expect(err.message).to.match(new RegExp(`Port ${port} .* is taken. Set EMBEDDED_PG_PORT`))
      )
    } finally {
      blocker.close()
    }
  })

  it('says clearly when its folder is unusable', async () => {
    const file = path.join(base, `not-a-folder-${process.pid}`)
    fs.mkdirSync(base, { recursive: true })
    fs.writeFileSync(file, 'x')
    dirs.push(file)
    await startEmbedded({ dir: file, port: await freePort(), database: 'x' }).then(
      () => expect.fail('should not start'),
      (err: Error) => expect(err.message).to.match(/Could not create the embedded PostgreSQL cluster .*Set DATA_DIR/)
    )
  })

  it('keeps data across restarts, and recovers from a server left running by a crash', async () => {
    const d = dir('crash')
    const port = await freePort()
    const first = await startEmbedded({ dir: d, port, database: 'keep' })
    await query(first.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)')
    await first.stop()

    // A process that starts the cluster and dies without stopping it leaves postgres running.
    const crasher = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { startEmbedded } from ${JSON.stringify(path.resolve('models/embedded.ts'))}
      await startEmbedded({ dir: ${JSON.stringify(d)}, port: ${port}, database: 'keep' })
      process.kill(process.pid, 'SIGKILL')
    `
      ],
      { stdio: 'ignore' }
    )
    await new Promise((r) => crasher.once('exit', r))
    expect(fs.existsSync(path.join(d, 'postmaster.pid'))).to.equal(true)

    const again = await startEmbedded({ dir: d, port, database: 'keep' })
    try {
      expect(await query(again.url, 'SELECT v FROM kept')).to.deep.equal([{ v: 42 }])
    } finally {
      await again.stop()
    }
  })

  it('serves the app over a Unix socket in its own folder when the path fits, over TCP when it does not', async () => {
    const short = dir('sock')
    const a = await startEmbedded({ dir: short, port: await freePort(), database: 'sock' })
    try {
      expect(a.url).to.contain(`?host=${encodeURIComponent(short)}`)
      // No server address: the connection is not over TCP (ADR 0024).
      expect(await query(a.url, 'SELECT inet_server_addr() AS addr')).to.deep.equal([{ addr: null }])
      // Operator commands attach to the running server the same way.
      expect(runningEmbeddedUrl(short, 'sock')).to.equal(a.url)
    } finally {
      await a.stop()
    }
    const long = dir(`long-${'x'.repeat(100)}`)
    const b = await startEmbedded({ dir: long, port: await freePort(), database: 'tcp' })
    try {
      expect(b.url).not.to.contain('?host=')
      expect(await query(b.url, 'SELECT host(inet_server_addr()) AS addr')).to.deep.equal([{ addr: '127.0.0.1' }])
    } finally {
      await b.stop()
    }
  })
})
