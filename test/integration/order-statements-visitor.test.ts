import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsOf, askedAtOnce, LIMIT, PACKAGE } from '../helpers/order-statements.ts'

describe('placing an order: statements and commits (ADR 0046)', () => {
  beforeEach(resetDb)

  it("a visitor's mobile-money order: the order with its payment in one flushed commit before the prompt, the gateway's answer, and no session", async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    // The settings cached as any running shop has them.
    await visitor.get('/api/settings')
    const { out, statements, flushes, sent, events, named } = await statementsOf(
      () => visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' }),
      [LIMIT, PACKAGE]
    )
    expect(out.status, out.text).to.equal(201)
    // Every statement of the order goes by name: none is parsed and planned again per order.
    expect(
      sent.filter((s) => !named.includes(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(out.body.order).to.include({ paymentStatus: 'PENDING', recipientNumber: '0241234567' })
    expect(out.body.payment).to.include({ paymentStatus: 'PENDING' })
    expect(flushes, sent.join('\n')).to.equal(1)
    // The payment this browser started is remembered in its signed cookie: nothing is written to the session table.
    expect(
      sent.filter((s) => /\bsession\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // Four statements in three round trips: the request limit with the package, the order with its payment, the gateway's answer.
    expect(statements, sent.join('\n')).to.equal(4)
    expect(askedAtOnce(events, LIMIT, PACKAGE), events.join('\n')).to.equal(true)
    // The order, its audit entry and its claimed payment are one statement: no transaction around it.
    expect(
      sent.filter((s) => /^(START TRANSACTION|BEGIN|COMMIT)/i.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    const [placing] = sent.filter((s) => /INSERT INTO orders\b/.test(s))
    expect(placing, sent.join('\n')).to.match(/INSERT INTO audit_logs\b/)
    expect(placing, sent.join('\n')).to.match(/INSERT INTO payments\b/)
    // The order's audit entry is written by the order's own statement.
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // Nothing was read back that a write had returned, and the settings came from the cache.
    expect(
      sent.filter((s) => /^SELECT \* FROM payments/.test(s) || /FROM "orders"/.test(s) || /^SELECT [^(]*FROM settings/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
  })

  it("a visitor's order is answered while the session table is held: it has nothing to write there, and its browser finds its payment", async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    const locker = new pg.Client({ connectionString: app().db.url })
    await locker.connect()
    try {
      // No read or write of the session table can pass this lock until it is let go.
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE session IN ACCESS EXCLUSIVE MODE')
      const out = await visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })
      expect(out.status, out.text).to.equal(201)
      const again = await visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234568', payerPhone: '0241234568', payerNetwork: 'MTN' })
      expect(again.status, again.text).to.equal(201)
      // The next requests of this browser find both payments it started.
      expect((await visitor.get(`/api/payment/status/${out.body.payment.transactionId}`)).status).to.equal(200)
      expect((await visitor.get(`/api/payment/status/${again.body.payment.transactionId}`)).status).to.equal(200)
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end()
    }
  })
})

describe("placing a visitor's order: no trigger function for a row without an agent (ADR 0053)", () => {
  it("the agents' page notice on orders runs only for rows that name an agent: a visitor's INSERT and its answer's UPDATE call no function", async () => {
    const defs = await app().db.sequelize.query<{ def: string }>(
      `SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid = 'orders'::regclass AND NOT t.tgisinternal AND p.proname = 'datahub_notify_agent_page'`,
      { type: QueryTypes.SELECT }
    )
    expect(defs, JSON.stringify(defs)).to.have.length(3)
    for (const { def } of defs) expect(def).to.match(/ WHEN \(.*agent_id IS NOT NULL/)
  })
})

describe("placing a visitor's order: one statement for the order and its payment (ADR 0046)", () => {
  beforeEach(resetDb)

  const order = (c: Client, pkgId: number, extra: Record<string, unknown> = {}) =>
    c.post('/api/orders', { packageId: pkgId, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN', ...extra })
  const kept = async () =>
    (
      await app().db.sequelize.query<{ orders: string; payments: string; entries: string }>(
        `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM payments) AS payments,
                (SELECT count(*) FROM audit_logs WHERE action = 'ORDER_CREATED') AS entries`,
        { type: QueryTypes.SELECT }
      )
    )[0]

  it("a payment that cannot be written keeps no order and no audit entry either, and its transaction id never becomes this browser's", async () => {
    const pkg = await createPackage()
    const someone = new Client()
    const theirs = await order(someone, pkg.id)
    expect(theirs.status, theirs.text).to.equal(201)
    const tid = theirs.body.payment.transactionId as string
    // The order row is gone, its payment stays: only the payment's unique index can refuse the id now.
    await app().db.sequelize.query('UPDATE payments SET order_id = NULL WHERE transaction_id = :tid RETURNING id', {
      replacements: { tid },
      type: QueryTypes.SELECT
    })
    await app().db.sequelize.query('DELETE FROM orders WHERE payment_transaction_id = :tid RETURNING id', { replacements: { tid }, type: QueryTypes.SELECT })
    const visitor = new Client()
    const again = await order(visitor, pkg.id, { transactionId: tid, recipientNumber: '0241234568', payerPhone: '0241234568' })
    expect(again.status, again.text).to.equal(409)
    expect(again.body.error).to.equal('Transaction ID already used. Please try again.')
    expect(await kept()).to.deep.equal({ orders: '0', payments: '1', entries: '1' })
    expect((await visitor.get(`/api/payment/status/${tid}`)).status).to.not.equal(200)
  })

  it('a settings save not heard of yet that leaves the platform open: the order is placed in a transaction that read the settings afresh', async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    expect((await visitor.get('/api/settings')).body.platformOpen).to.equal(true)
    // A save on another instance, its NOTIFY not yet here: the row's version moves, the platform stays open.
    await app().db.sequelize.query(`UPDATE settings SET data = data WHERE id = 1 RETURNING id`, { type: QueryTypes.SELECT })
    const { out, sent } = await statementsOf(() => order(visitor, pkg.id))
    expect(out.status, out.text).to.equal(201)
    // The one statement wrote nothing (the version had moved); the transaction read the row and placed the order.
    expect(sent.filter((s) => /^SELECT xmin::text AS version, data FROM settings/.test(s)).length, sent.join('\n')).to.equal(1)
    expect(sent.filter((s) => /^START TRANSACTION/.test(s)).length, sent.join('\n')).to.equal(1)
    expect(await kept()).to.deep.equal({ orders: '1', payments: '1', entries: '1' })
  })

  it('the request limit is taken beside the package read: bad orders count, and a refused limit answers 429 whatever else was wrong', async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    // Refused by the order's own check, before its package is read; the prompt's phone is still counted.
    const bad = () => visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '12', payerPhone: '0241234567', payerNetwork: 'MTN' })
    for (let i = 0; i < 10; i++) expect((await bad()).status).to.equal(400)
    const refused = await bad()
    expect(refused.status, refused.text).to.equal(429)
    expect(await kept()).to.deep.equal({ orders: '0', payments: '0', entries: '0' })
  })
})
