import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { poolIdleWithin } from '../helpers/pool.ts'
import { app, resetDb } from '../helpers/server.ts'
import { pendingSimulatorOrder } from '../helpers/simulator-order.ts'
import { statementsSent } from '../helpers/statements.ts'

// A gateway payment's settlement opens its own transaction; its START TRANSACTION and COMMIT go straight on the
// connection (ADR 0065, ADR 0069) instead of through Sequelize's query path, which built a query object, formatted it
// and handled its result for two statements that take no value and return no row, on every paid order.

const db = () => app().db.sequelize

/** The SQL Sequelize's own query path ran while `fn` ran (the statements our code sends by name go around it). */
async function throughSequelize<T>(fn: () => Promise<T>): Promise<{ out: T; ran: string[] }> {
  const s = db() as unknown as { query: (...a: unknown[]) => unknown }
  const query = s.query
  const ran: string[] = []
  s.query = function (this: unknown, ...args: unknown[]) {
    const sql = args[0] as string | { query?: string }
    ran.push((typeof sql === 'string' ? sql : (sql?.query ?? '')).trim())
    return query.apply(this, args)
  }
  try {
    return { out: await fn(), ran }
  } finally {
    s.query = query
  }
}

const approved = { status: 'SUCCESS' as const, message: 'Approved', amountPesewas: 450, currency: 'GHS' }
const sql = <T extends object>(text: string, replacements: Record<string, unknown>) =>
  db().query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

describe("settlement's own transaction: START TRANSACTION and COMMIT on the connection", function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('settles in one transaction whose START and COMMIT skip Sequelize, and returns its connection', async () => {
    const o = await pendingSimulatorOrder()
    await app().services.settings.get()
    // Read before without its order's columns: the text is not decided by the statement, so the settlement takes its
    // transaction (a customer's order read with them runs its statement alone: ADR 0086, "Alone").
    const before = (await app().services.payments.load(o.tid))!
    const { out, ran } = await throughSequelize(() => statementsSent(() => app().services.payments.settle(o.tid, approved, {}, { before })))
    expect(out.out.settled).to.equal(true)
    // Still one transaction around the settlement's writes, its commit the one that waits for the flush.
    const shapes = out.sent.map((s) => s.replace(/\s+/g, ' ').slice(0, 20))
    expect(
      shapes.filter((s) => /^(START TRANSACTION|COMMIT)/.test(s)),
      out.sent.join('\n')
    ).to.deep.equal(['START TRANSACTION;', 'COMMIT;'])
    expect(
      ran.filter((s) => /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)/i.test(s)),
      ran.join('\n')
    ).to.deep.equal([])
    // Returned: the pool comes back to no connection in use (a background job may hold one for a moment; a leak never ends).
    expect(await poolIdleWithin(2_000), 'a connection still out').to.equal(true)
    const [order] = await sql<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = :id', { id: o.id })
    expect(order).to.deep.equal({ payment_status: 'SUCCESS' })
    const audit = await sql('SELECT id FROM audit_logs WHERE action = :a AND resource_id = :tid', { a: 'PAYMENT_SUCCESS', tid: o.tid })
    expect(audit).to.have.length(1)
  })

  it('a settlement that fails inside rolls back everything it wrote, the payment stays open, and the connection comes back', async () => {
    const o = await pendingSimulatorOrder()
    await app().services.settings.get()
    // The audit entry is the settlement's last write: make PostgreSQL refuse it for this payment only.
    await db().query(`CREATE OR REPLACE FUNCTION refuse_audit_test()  RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$`)
    await db().query(
      `CREATE TRIGGER refuse_audit_test BEFORE INSERT ON audit_logs FOR EACH ROW WHEN (NEW.resource_id = '${o.tid}') EXECUTE FUNCTION refuse_audit_test()`
    )
    try {
      // More failures than the pool has connections: each one's connection came back (else the later ones would wait forever).
      for (let i = 0; i < 25; i++) {
        const err = await app()
          .services.payments.settle(o.tid, approved)
          .catch((e: Error) => e)
        expect((err as Error).message).to.match(/audit refused/)
      }
    } finally {
      await db().query('DROP TRIGGER refuse_audit_test ON audit_logs')
      await db().query('DROP FUNCTION refuse_audit_test()')
    }
    const [payment] = await sql<{ status: string }>('SELECT status FROM payments WHERE transaction_id = :tid', { tid: o.tid })
    expect(payment).to.deep.equal({ status: 'PENDING' })
    const [order] = await sql<{ payment_status: string; delivery_status: string }>('SELECT payment_status, delivery_status FROM orders WHERE id = :id', {
      id: o.id
    })
    expect(order).to.deep.equal({ payment_status: 'PENDING', delivery_status: 'NOT_STARTED' })
    expect(await sql('SELECT id FROM commissions WHERE order_id = :id', { id: o.id })).to.deep.equal([])
    // Asked again, the same word settles it once.
    expect((await app().services.payments.settle(o.tid, approved)).settled).to.equal(true)
  })
})
