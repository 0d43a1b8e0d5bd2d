import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { freePort } from '../../models/embedded.ts'
import { app } from '../helpers/server.ts'

/** A real `node main.ts` process on the test database, stopped with a real SIGTERM. */
async function startInstance(port: number): Promise<{ child: ChildProcess; out: () => string }> {
  let out = ''
  const child = spawn(process.execPath, [path.resolve('main.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: app().db.url,
      SESSION_SECRET: 'graceful-stop-test-secret-0123456789',
      PAYMENT_PROVIDER: 'simulator',
      JOBS_ENABLED: '0',
      SHUTDOWN_DRAIN_MS: '800',
      LOG_LEVEL: 'info'
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const until = Date.now() + 30_000
  while (Date.now() < until) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return { child, out: () => out }
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill('SIGKILL')
  throw new Error(`instance did not become ready:\n${out}`)
}

describe('graceful stop on SIGTERM', function () {
  this.timeout(60_000)

  it('answers a request whose body was half sent at the signal, reports not ready while draining, and logs "stopped"', async () => {
    const port = await freePort()
    const { child, out } = await startInstance(port)
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const body = JSON.stringify({ packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    const half = Math.floor(body.length / 2)

    const sock = net.connect(port, '127.0.0.1')
    await new Promise((r) => sock.once('connect', r))
    let reply = ''
    let reset: Error | undefined
    sock.on('data', (d) => (reply += d))
    sock.on('error', (e) => (reset = e))
    const ended = new Promise((r) => sock.once('close', r))
    sock.write(
      `POST /api/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`
    )
    await new Promise((r) => setTimeout(r, 150))

    child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 300))
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
    expect(ready.status).to.equal(503) // the balancer stops sending before the listener closes
    expect((await ready.json()).status).to.equal('draining')

    await new Promise((r) => setTimeout(r, 900)) // past the drain: the listener is closed now
    sock.write(body.slice(half))
    await ended
    expect(reset, 'the connection was reset').to.equal(undefined)
    expect(reply).to.match(/^HTTP\/1\.1 201 /)
    const order = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))
    expect(await app().db.models.Order.count({ where: { id: order.id ?? order.order?.id } })).to.equal(1)

    expect(await exited).to.equal(0)
    expect(out()).to.include('"msg":"stopped"')
  })
})
