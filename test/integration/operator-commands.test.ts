import { expect } from 'chai'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { adminClient, Client } from '../helpers/http.ts'
import { createOrder } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * `node scripts/ops.ts ...` as npm runs it, against the test database. Asynchronous, so the app in
 * this process keeps serving (a blocked event loop lets the server time out the client's keep-alive socket).
 */
function ops(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve('scripts/ops.ts'), ...args], {
      env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: app().db.url, LOG_LEVEL: 'warn', ...env },
      timeout: 60_000
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, out }))
  })
}

describe('operator commands', function () {
  this.timeout(90_000)
  const dir = path.resolve('.data/test-runs', `ops-${process.pid}`)
  before(() => fs.mkdirSync(dir, { recursive: true }))
  after(() => fs.rmSync(dir, { recursive: true, force: true }))
  beforeEach(resetDb)

  it('db:backup, wipe, db:restore: every order is back, with its id, amount and status, and new ids follow on', async () => {
    const orders = []
    for (let i = 0; i < 25; i++) orders.push(await createOrder({ amountPesewas: 100 + i, paymentStatus: i % 3 ? 'SUCCESS' : 'PENDING' }))
    const file = path.join(dir, 'shop.json.gz')
    const b = await ops(['backup', file])
    expect(b.status, b.out).to.equal(0)
    expect(b.out).to.match(/Backup written: .*shop\.json\.gz \(\d+ tables, \d+ rows\)/)

    await resetDb() // the wipe: every table emptied, defaults seeded again
    expect(await app().db.models.Order.count()).to.equal(0)

    expect((await ops(['restore', file])).out).to.include('--yes') // refuses without confirmation
    const r = await ops(['restore', file, '--yes'])
    expect(r.status, r.out).to.equal(0)
    app().services.settings.invalidate()
    const back = (await app().db.models.Order.findAll({ order: [['id', 'ASC']], raw: true })) as any[]
    expect(back.map((o) => [o.id, o.amountPesewas, o.paymentStatus])).to.deep.equal(orders.map((o) => [o.id, o.amountPesewas, o.paymentStatus]))
    const next = await createOrder()
    expect(next.id).to.be.greaterThan(Math.max(...orders.map((o) => o.id as number)))
    // Accounts came back too: the seeded admin signs in.
    expect((await new Client().login('admin@test.local', 'admin-pass-123')).status).to.equal(200)
  })

  it('admin:create makes an admin who can sign in; admin:reset-password replaces the password and signs them out', async () => {
    const created = await ops(['admin:create', 'ops-admin@test.local'], { DATAHUB_PASSWORD: 'first-pass-123' })
    expect(created.status, created.out).to.equal(0)
    const c = new Client()
    expect((await c.login('ops-admin@test.local', 'first-pass-123')).status).to.equal(200)
    expect((await c.get('/api/auth/me')).body.user.role).to.equal('ADMIN')

    const reset = await ops(['admin:reset-password', 'ops-admin@test.local'])
    expect(reset.status, reset.out).to.equal(0)
    const pw = /New password: (\S+)/.exec(reset.out)![1]!
    expect((await c.get('/api/auth/me')).status).to.equal(401) // the old session is gone
    expect((await new Client().login('ops-admin@test.local', 'first-pass-123')).status).to.equal(401)
    expect((await new Client().login('ops-admin@test.local', pw)).status).to.equal(200)

    expect((await ops(['admin:create', 'ops-admin@test.local'])).out).to.include('already exists')
    expect((await ops(['admin:reset-password', 'nobody@test.local'])).out).to.include('No user with the email nobody@test.local')
  })

  it('db:where says where the database is, without its password', async () => {
    const r = await ops(['where'])
    expect(r.out).to.match(/^external PostgreSQL: postgres:\/\/datahub:\*\*\*@127\.0\.0\.1:\d+\/datahub_test/)
    const e = await ops(['where'], { DATABASE_URL: '', DATA_DIR: path.join(dir, 'shop') })
    expect(e.out).to.include(`embedded PostgreSQL cluster: ${path.join(dir, 'shop', 'pg')}`)
  })

  it('payments:reconcile reconciles a day with the gateway now, lists what differs, records the day and is audited', async () => {
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
    // SUCCESS here, but the simulator's payer never approved it: "paid here, not at the gateway".
    await app().db.sequelize.query(
      `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, created_at) VALUES ('OPS-RECON-1', 'data', 'simulator', 'momo', 'SUCCESS', 500, :at)`,
      { replacements: { at: `${day}T10:00:00Z` } }
    )
    const r = await ops(['payments:reconcile', day])
    expect(r.status, r.out).to.equal(0)
    expect(r.out).to.include(`Reconciled ${day}: 1 at the gateway, 1 here, 1 mismatch`)
    expect(r.out).to.include('1 to look at on the admin page "Payments needing attention".')
    const attention = (await (await adminClient()).get('/api/admin/payments/attention')).body
    expect(attention.items.map((i: any) => [i.kind, i.transactionId])).to.deep.include(['recon_mismatch', 'OPS-RECON-1'])
    const [done] = await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM reconciled_days WHERE day = :day`, {
      replacements: { day },
      type: QueryTypes.SELECT
    })
    expect(Number(done!.n)).to.equal(1)
    const [audit] = await app().db.sequelize.query<{ details: any }>(`SELECT details FROM audit_logs WHERE action = 'RECONCILIATION_RUN'`, {
      type: QueryTypes.SELECT
    })
    expect(audit!.details).to.include({ by: 'operator command', from: day, to: day })

    const bad = await ops(['payments:reconcile', '2026-13-01'])
    expect(bad.status).to.equal(1)
    expect(bad.out).to.include('payments:reconcile failed: from is not a real day')
    expect((await ops(['payments:reconcile'])).out).to.include('Usage: npm run payments:reconcile -- DAY [TO]')
  })
})
