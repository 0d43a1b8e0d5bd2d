import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { createSimulatorVendor, databaseKeyStore } from '../../server/services/delivery/vendors/simulator.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// The built-in simulator vendor keeps the idempotency keys it answered in the shop's database.
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number

/** A visitor buys 1GB MTN for the number and approves on the simulator phone. */
async function buyAndPay(recipientNumber: string) {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status, placed.text).to.equal(201)
  const tid = placed.body.payment.transactionId as string
  expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
  return placed.body.order.id as number
}

/** The statements that write the simulator's keys while `fn` runs. */
async function keyWrites(fn: () => Promise<unknown>): Promise<number> {
  let writes = 0
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown
  ;(pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...a: unknown[]) {
    const c = a[0] as string | { text?: string }
    if (/INSERT INTO delivery_simulator_sends/.test(typeof c === 'string' ? c : (c?.text ?? ''))) writes++
    return query.apply(this, a)
  }
  try {
    await fn()
  } finally {
    ;(pg.Client.prototype as { query: unknown }).query = query
  }
  return writes
}

describe('the delivery simulator keys', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it("a pump's claim writes the keys of all its vendor calls in one statement, each order with its own reference", async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push(await buyAndPay(`02011100${i}${i}`))
    let claimed = 0
    const writes = await keyWrites(async () => {
      claimed = await app().services.delivery.pump('test-pool')
    })
    expect(claimed).to.equal(5)
    expect(writes).to.equal(1)
    const orders = await q<{ id: number; delivery_status: string; delivery_reference: string }>(
      'SELECT id, delivery_status, delivery_reference FROM orders WHERE id IN (:ids) ORDER BY id',
      { ids }
    )
    const keys = await q<{ reference: string }>('SELECT reference FROM delivery_simulator_sends ORDER BY reference')
    expect(orders.map((o) => o.delivery_status)).to.deep.equal(Array(5).fill('DELIVERED'))
    expect(new Set(orders.map((o) => o.delivery_reference)).size).to.equal(5)
    expect(keys.map((k) => k.reference)).to.deep.equal(orders.map((o) => o.delivery_reference).sort())
  })

  it('calls made at once share one statement; a key asked twice in it gets one row and one reference, kept for a restarted process', async () => {
    const order = { id: 1, network: 'MTN', recipientNumber: '0241234567', dataSizeMb: 1024 }
    const store = databaseKeyStore(app().db.sequelize)
    const first = createSimulatorVendor({ delayMs: 0, timeoutMs: 1000, store }).vendor
    let answers: { reference: string; status: string }[] = []
    const writes = await keyWrites(async () => {
      answers = await Promise.all(['key-a', 'key-b', 'key-a', 'key-c'].map((key) => first.send(order, key)))
    })
    expect(writes).to.equal(1)
    expect(answers.map((a) => a.status)).to.deep.equal(['DELIVERED', 'DELIVERED', 'DELIVERED', 'DELIVERED'])
    expect(answers[2]!.reference).to.equal(answers[0]!.reference)
    expect(new Set(answers.map((a) => a.reference)).size).to.equal(3)
    expect((await q<{ n: string }>('SELECT count(*) AS n FROM delivery_simulator_sends'))[0]!.n).to.equal('3')
    // A new process: nothing in memory; the keys are in the database, a new one is written beside them.
    const restarted = createSimulatorVendor({ delayMs: 0, timeoutMs: 1000, store: databaseKeyStore(app().db.sequelize) }).vendor
    const again = await Promise.all(['key-b', 'key-d'].map((key) => restarted.send(order, key)))
    expect(again[0]).to.include({ status: 'DELIVERED', reference: answers[1]!.reference })
    expect(again[1]!.reference).not.to.be.oneOf(answers.map((a) => a.reference))
    expect((await q<{ n: string }>('SELECT count(*) AS n FROM delivery_simulator_sends'))[0]!.n).to.equal('4')
  })

  it('a failed write fails each call of its turn, and the next turn writes again', async () => {
    const order = { id: 1, network: 'MTN', recipientNumber: '0241234567', dataSizeMb: 1024 }
    const vendor = createSimulatorVendor({ delayMs: 0, timeoutMs: 1000, store: databaseKeyStore(app().db.sequelize) }).vendor
    await q(`CREATE FUNCTION sim_keys_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`)
    await q('CREATE TRIGGER sim_keys_fail BEFORE INSERT ON delivery_simulator_sends FOR EACH ROW EXECUTE FUNCTION sim_keys_fail()')
    let outcomes: PromiseSettledResult<unknown>[]
    try {
      outcomes = await Promise.allSettled(['key-x', 'key-y'].map((key) => vendor.send(order, key)))
    } finally {
      await q('DROP TRIGGER sim_keys_fail ON delivery_simulator_sends')
      await q('DROP FUNCTION sim_keys_fail()')
    }
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected'])
    const retried = await Promise.all(['key-x', 'key-y'].map((key) => vendor.send(order, key)))
    expect(retried.map((r) => r.status)).to.deep.equal(['DELIVERED', 'DELIVERED'])
    expect((await q<{ n: string }>('SELECT count(*) AS n FROM delivery_simulator_sends'))[0]!.n).to.equal('2')
  })
})
