import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { connect, type Database } from '../../models/db.ts'
import { housekeeping } from '../../jobs/housekeeping.ts'
import { runJob, SCHEDULES } from '../../jobs/index.ts'
import { tickRuns } from '../../jobs/ticks.ts'
import { startChildServer } from '../helpers/child-server.ts'
import { LOCKS, withAdvisoryLock } from '../../jobs/lock.ts'
import { reconcilePayments } from '../../jobs/reconcile.ts'
import type { Env } from '../../server/env.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { createPackage } from '../helpers/factories.ts'
import { startFakePaystack, type FakePaystack } from '../helpers/fake-paystack.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'
import { ussdAgent } from '../helpers/ussd.ts'

const log = createLogger('silent')

/** A second app instance on the same database, as behind a load balancer. */
async function secondInstance(env: Partial<Env> = {}): Promise<Running> {
  const url = app().db.url
  const { sequelize, models } = connect(url)
  const db: Database = { sequelize, models, url, close: async () => sequelize.close() }
  return boot({ env: { ...testEnv(), ...env }, log, db, dev: false })
}

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

/** Makes a payment look as if it was requested `seconds` ago (and last asked about then). */
async function age(transactionId: string, seconds: number) {
  await app().db.sequelize.query(
    `UPDATE payments SET created_at = now() - make_interval(secs => :s), last_checked_at = now() - make_interval(secs => :s) WHERE transaction_id = :t`,
    { replacements: { s: seconds, t: transactionId } }
  )
}

async function paymentStatus(transactionId: string) {
  const [row] = await q<{ status: string; order_status: string | null }>(
    'SELECT p.status, o.payment_status AS order_status FROM payments p LEFT JOIN orders o ON o.id = p.order_id WHERE p.transaction_id = :t',
    { t: transactionId }
  )
  return row!
}

describe('jobs', () => {
  beforeEach(resetDb)

  describe('reconcile against a Paystack-speaking gateway (no webhook ever sent)', () => {
    let fake: FakePaystack
    let other: Running
    before(async function () {
      this.timeout(60_000)
      fake = await startFakePaystack('sk_test_reconcile')
      other = await secondInstance({ PAYSTACK_SECRET_KEY: fake.secret, PAYSTACK_BASE_URL: fake.url })
    })
    after(async () => {
      await other?.stop()
      await fake?.close()
    })

    async function momoOrder(recipientNumber = '0551234567') {
      const pkg = await createPackage({ network: 'MTN', priceUserPesewas: 500, priceAgentPesewas: 450 })
      const { order, payment } = await other.services.orders.placeOrder(
        { packageId: pkg.id, recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN', channel: 'ussd' },
        {}
      )
      expect(payment.provider).to.equal('paystack')
      // USSD orders start their charge in a queued job (ADR 0013): run it, as a worker would.
      await other.services.queue.drain()
      return order.paymentTransactionId!
    }

    it("leaves a payment younger than a minute alone, then settles it from the gateway's answer, once", async () => {
      const tx = await momoOrder()
      fake.complete(tx, 'success') // the payer approved; the webhook is lost

      let run = await reconcilePayments({ services: other.services, log })
      expect(run).to.deep.equal({ ran: true, result: { checked: 0, failed: 0, expired: 0 } })
      expect((await paymentStatus(tx)).status).to.not.equal('SUCCESS')

      await age(tx, 90)
      run = await reconcilePayments({ services: other.services, log })
      expect(run).to.deep.equal({ ran: true, result: { checked: 1, failed: 0, expired: 0 } })
      expect(await paymentStatus(tx)).to.deep.equal({ status: 'SUCCESS', order_status: 'SUCCESS' })
      expect(fake.requests.filter((r) => r.method === 'GET' && r.path === `/transaction/verify/${tx}`)).to.have.length(1)

      await age(tx, 120)
      run = await reconcilePayments({ services: other.services, log })
      expect(run).to.deep.equal({ ran: true, result: { checked: 0, failed: 0, expired: 0 } })
      expect(await app().db.models.AuditLog.count({ where: { action: 'PAYMENT_SUCCESS', resourceId: tx } })).to.equal(1)
    })

    it("expires mobile-money payments still open after the gateway's approval window (Paystack: 180 s, plus a minute), and only those", async () => {
      const stale = await momoOrder('0551111111')
      const fresh = await momoOrder('0552222222')
      await age(stale, 250)
      await age(fresh, 200)
      const run = await reconcilePayments({ services: other.services, log })
      expect(run.ran).to.equal(true)
      expect(run.ran && run.result.expired).to.equal(1)
      expect(await paymentStatus(stale)).to.deep.equal({ status: 'EXPIRED', order_status: 'EXPIRED' })
      expect((await paymentStatus(fresh)).status).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
    })

    it('expires nothing that the gateway reports paid at the last check', async () => {
      const tx = await momoOrder('0553333333')
      fake.complete(tx, 'success')
      await age(tx, 45 * 60)
      const run = await reconcilePayments({ services: other.services, log })
      expect(run.ran && run.result.expired).to.equal(0)
      expect((await paymentStatus(tx)).status).to.equal('SUCCESS')
    })

    it('logs a gateway failure and tries again at the next run', async () => {
      const tx = await momoOrder('0554444444')
      await age(tx, 120)
      await fake.close()
      try {
        const run = await reconcilePayments({ services: other.services, log })
        expect(run.ran).to.equal(true)
        expect((await paymentStatus(tx)).status).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
      } finally {
        fake = await startFakePaystack('sk_test_reconcile')
        // The restarted fake has a new port and no memory: point a fresh instance at it for the rest.
        await other.stop()
        other = await secondInstance({ PAYSTACK_SECRET_KEY: fake.secret, PAYSTACK_BASE_URL: fake.url })
      }
    })
  })

  describe('several instances on one database', () => {
    let other: Running
    before(async function () {
      this.timeout(60_000)
      other = await secondInstance()
    })
    after(() => other?.stop())

    it('runs a job on one instance only while another holds its advisory lock', async () => {
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      const holder = withAdvisoryLock(other.services.deps.sequelize, LOCKS.reconcile, async () => {
        entered()
        await held
        return 'held'
      })
      await inside
      const skipped = await reconcilePayments({ services: app().services, log })
      expect(skipped).to.deep.equal({ ran: false })
      release()
      expect(await holder).to.deep.equal({ ran: true, result: 'held' })
      expect((await reconcilePayments({ services: app().services, log })).ran).to.equal(true)
    })

    it('two instances running the reconcile at once settle a payment exactly once', async () => {
      const pkg = await createPackage({ network: 'MTN', priceUserPesewas: 500, priceAgentPesewas: 450 })
      const { agent } = await ussdAgent({ phone: '0241140001' })
      const actor = (await app().services.auth.loadActor(agent.userId))!
      const txs: string[] = []
      for (let i = 0; i < 5; i++) {
        const { order } = await app().services.orders.placeOrder(
          { packageId: pkg.id, recipientNumber: `05500000${i}0`, payerPhone: '0241140001', payerNetwork: 'MTN', channel: 'ussd' },
          { user: actor }
        )
        txs.push(order.paymentTransactionId!)
      }
      // The payer approved every prompt on the simulator's side, and no status check or webhook followed.
      await app().db.sequelize.query(
        `UPDATE payments SET details = jsonb_set(details, '{simulator}', jsonb_build_object('decision', 'APPROVED', 'at', now())) WHERE transaction_id IN (:txs)`,
        { replacements: { txs } }
      )
      for (const tx of txs) await age(tx, 90)

      const runs = await Promise.all([
        reconcilePayments({ services: app().services, log }),
        reconcilePayments({ services: other.services, log }),
        reconcilePayments({ services: app().services, log }),
        reconcilePayments({ services: other.services, log })
      ])
      expect(runs.some((r) => r.ran)).to.equal(true)
      const checked = runs.reduce((n, r) => n + (r.ran ? r.result.checked : 0), 0)
      expect(checked).to.equal(5)

      for (const tx of txs) expect(await paymentStatus(tx)).to.deep.equal({ status: 'SUCCESS', order_status: 'SUCCESS' })
      const [audits] = await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id IN (:txs)`, { txs })
      const [commissions] = await q<{ n: string; orders: string }>(
        'SELECT count(*) AS n, count(DISTINCT c.order_id) AS orders FROM commissions c JOIN orders o ON o.id = c.order_id WHERE o.payment_transaction_id IN (:txs)',
        { txs }
      )
      // One PAYMENT_SUCCESS entry and one commission per payment, however many runs raced.
      expect(Number(audits!.n)).to.equal(5)
      expect(Number(commissions!.n)).to.equal(5)
      expect(Number(commissions!.orders)).to.equal(5)
    })
  })

  describe('housekeeping and the scheduler', () => {
    it('deletes idle-expired USSD sessions and stale rate-limit counters, and keeps live ones', async () => {
      const { sequelize } = app().db
      await sequelize.query(`INSERT INTO ussd_sessions (session_id, phone, state, expires_at) VALUES
        ('old', '0241000000', '{}', now() - interval '1 second'), ('live', '0241000001', '{}', now() + interval '2 minutes')`)
      await sequelize.query(`INSERT INTO rate_limits (key, count, window_start) VALUES ('stale', 3, now() - interval '2 days'), ('fresh', 1, now())`)
      // The request limits' own store (services/limits) keeps its expiry in epoch milliseconds.
      await sequelize.query('INSERT INTO rate_limiter_flexible (key, points, expire) VALUES (:old, 1, :past), (:live, 1, :future), (:forever, 1, NULL)', {
        replacements: { old: 'lim_old', live: 'lim_live', forever: 'lim_forever', past: Date.now() - 1000, future: Date.now() + 60_000 }
      })
      const run = await housekeeping({ services: app().services, log })
      expect(run).to.deep.equal({ ran: true, result: { ussdSessions: 1, rateLimits: 2, jobRuns: 0 } })
      expect((await q<{ key: string }>('SELECT key FROM rate_limiter_flexible ORDER BY key')).map((r) => r.key)).to.deep.equal(['lim_forever', 'lim_live'])
      expect((await q<{ session_id: string }>('SELECT session_id FROM ussd_sessions')).map((r) => r.session_id)).to.deep.equal(['live'])
      expect((await q<{ key: string }>('SELECT key FROM rate_limits')).map((r) => r.key)).to.deep.equal(['fresh'])
    })

    it('a failing run is logged and never thrown', async () => {
      const lines: string[] = []
      const captured = createLogger('error')
      const spy = Object.assign(Object.create(captured), {
        child: () => ({ error: (o: unknown, m: string) => lines.push(`${m} ${JSON.stringify(o)}`) })
      })
      await runJob('broken', { services: app().services, log: spy }, async () => {
        throw new Error('database went away')
      })
      expect(lines).to.have.length(1)
      expect(lines[0]).to.contain('job run failed; retrying at the next tick')
    })
  })

  describe('scheduled jobs on the job queue', () => {
    async function unsettledPayment() {
      const pkg = await createPackage({ network: 'MTN', priceUserPesewas: 500, priceAgentPesewas: 450 })
      const { order } = await app().services.orders.placeOrder(
        { packageId: pkg.id, recipientNumber: '0557777777', payerPhone: '0247777777', payerNetwork: 'MTN', channel: 'ussd' },
        {}
      )
      const tx = order.paymentTransactionId!
      await app().db.sequelize.query(
        `UPDATE payments SET details = jsonb_set(details, '{simulator}', '{"decision":"APPROVED"}'::jsonb) WHERE transaction_id = :tx`,
        { replacements: { tx } }
      )
      await age(tx, 90)
      return tx
    }

    it("drain returns after every job's outcome is written, even when writing it is slow: successes gone, a failure recorded", async () => {
      const { queue } = app().services
      const { sequelize } = app().db
      queue.register<{ fail?: boolean; hold?: boolean }>('test-drain', async (payload) => {
        if (payload.fail) throw new Error('refused by the test')
        if (!payload.hold) return
        // Another session holds this job's row for a moment, so the queue's write of its success waits.
        const t = await sequelize.transaction()
        await sequelize.query(`SELECT id FROM graphile_worker._private_jobs WHERE payload->>'hold' = 'true' FOR UPDATE`, { transaction: t })
        setTimeout(() => void t.commit(), 500)
      })
      for (let i = 0; i < 10; i++) await queue.enqueue('test-drain', { n: i })
      await queue.enqueue('test-drain', { fail: true })
      await queue.enqueue('test-drain', { hold: true })
      await queue.drain()
      const rows = await q<{ attempts: number; locked: boolean; last_error: string | null }>(
        `SELECT attempts, locked_at IS NOT NULL AS locked, last_error FROM graphile_worker._private_jobs
          WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'test-drain')`
      )
      expect(rows).to.have.length(1)
      expect(rows[0]).to.include({ attempts: 1, locked: false })
      expect(rows[0]!.last_error).to.contain('refused by the test')
    })

    it('a queued reconcile tick runs the real job: it settles a payment left without a webhook', async () => {
      const tx = await unsettledPayment()
      const { queue } = app().services
      expect(queue.tasks()).to.include.members(Object.keys(SCHEDULES))
      await queue.enqueue('reconcile', { _cron: { ts: '2026-11-23T10:00:00.000Z' } })
      await queue.drain()
      expect((await paymentStatus(tx)).status).to.equal('SUCCESS')
      expect(await queue.depth()).to.include({ ready: 0, failed: 0 })
    })

    it('a tick that reaches workers twice (a late instance, a retried job) runs once', async () => {
      const tx = await unsettledPayment()
      const { queue } = app().services
      const tick = { _cron: { ts: '2026-11-23T10:01:00.000Z' } }
      await queue.enqueue('reconcile', tick)
      await queue.drain()
      expect((await paymentStatus(tx)).status).to.equal('SUCCESS')
      // Planted: another payment left open, and the same tick delivered again. It must not run.
      const tx2 = await unsettledPayment()
      await queue.enqueue('reconcile', tick)
      await queue.drain()
      expect((await paymentStatus(tx2)).status).to.not.equal('SUCCESS')
      expect(await tickRuns(app().db.sequelize, 'reconcile')).to.deep.equal([{ tick: '2026-11-23 10:01:00+00', duplicates: 1 }])
    })

    it('an instance paused (SIGSTOP) from 0.3 s before a tick to 0.6 s after: each job still runs once for that tick', async function () {
      this.timeout(120_000)
      const a = await startChildServer(app().db.url)
      const b = await startChildServer(app().db.url)
      try {
        const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())))
        let tick = Math.ceil(Date.now() / 60_000) * 60_000
        if (tick - Date.now() < 1_000) tick += 60_000
        await sleepUntil(tick - 300)
        a.child.kill('SIGSTOP')
        await sleepUntil(tick + 600)
        a.child.kill('SIGCONT')
        await sleepUntil(tick + 5_000) // both have now seen the tick and run what they were given
        const at = new Date(tick).toISOString()
        const runs = await q<{ job: string; duplicates: number }>('SELECT job, duplicates FROM job_runs WHERE tick = :at ORDER BY job', { at })
        // Every job due at that minute ran there once (a row each), and no second instance arrived late for it.
        // Due at the tick: each pattern's minute and hour match it (SCHEDULES use `*`, `*/n` and numbers there, `*` after),
        // so a tick at 02:20 expects the daily tier promotions too.
        const matches = (f: string, v: number) => f === '*' || (f.startsWith('*/') ? v % Number(f.slice(2)) === 0 : Number(f) === v)
        const at0 = new Date(tick)
        const due = Object.entries(SCHEDULES)
          .filter(([, p]) => {
            const [minute, hour] = p.split(' ')
            return matches(minute!, at0.getUTCMinutes()) && matches(hour!, at0.getUTCHours())
          })
          .map(([j]) => j)
        expect(runs.map((r) => r.job).sort()).to.deep.equal(due.sort())
        expect(
          runs.every((r) => r.duplicates === 0),
          JSON.stringify(runs)
        ).to.equal(true)
      } finally {
        await a.kill('SIGTERM')
        await b.kill('SIGTERM')
      }
    })
  })
})
