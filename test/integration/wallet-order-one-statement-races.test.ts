import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { app, resetDb } from '../helpers/server.ts'
import { resellerWithKey } from '../helpers/reseller.ts'

// A wallet order's payment and debit are written by the order's own statement (ADR 0065). PostgreSQL runs a
// statement's data-modifying CTEs in no promised order; the debit's UPDATE is fed by the Idempotency-Key's row, so
// it may lock the wallet only once the key is this request's. These tests hold rows from another connection the way
// a concurrent request would, and check who waits on what, and that money moves once.

const one = async <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  (await app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }))[0]!

/** Waits (no time limit of its own: mocha's timeout ends it) until `n` lock requests wait in the database. */
async function waitingLocks(n: number) {
  for (;;) {
    const { waiting } = await one<{ waiting: number }>('SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted')
    if (waiting >= n) return
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** An agent with `ghs` in its wallet, its API client, and a bundle it buys at GHS 4.50; one order placed already (the key's "last used" mark). */
async function reseller(ghs: number) {
  const { pkg, a, api } = await resellerWithKey(ghs, 'Races')
  expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110000' }, { 'Idempotency-Key': 'warm' })).status).to.equal(201)
  return { pkg, agentId: a.agent.id, api }
}

type Books = { balance: number; entries: number; payments: number; orders: number; keys: number; audits: number }

/** The books after one order of 450 pesewas paid from the wallet: its debit, entry, payment, order, key and two audit entries. */
const onePaidOrder = (before: Books): Books => ({
  balance: before.balance - 450,
  entries: before.entries + 1,
  payments: before.payments + 1,
  orders: before.orders + 1,
  keys: before.keys + 1,
  audits: before.audits + 2
})

/** What the agent's money and its records are now. */
const books = (agentId: number) =>
  one<Books>(
    `SELECT (SELECT balance_pesewas::int FROM wallets WHERE agent_id = :id) AS balance,
            (SELECT count(*)::int FROM wallet_entries WHERE agent_id = :id AND type = 'ORDER') AS entries,
            (SELECT count(*)::int FROM payments WHERE agent_id = :id AND purpose = 'data') AS payments,
            (SELECT count(*)::int FROM orders WHERE agent_id = :id) AS orders,
            (SELECT count(*)::int FROM idempotency_keys WHERE agent_id = :id) AS keys,
            (SELECT count(*)::int FROM audit_logs WHERE action IN ('ORDER_CREATED', 'PAYMENT_SUCCESS')) AS audits`,
    { id: agentId }
  )

describe("a wallet order's payment and debit in the order's statement: races (ADR 0065)", () => {
  beforeEach(resetDb)

  it('a request whose Idempotency-Key another transaction holds waits on the key without locking the wallet; once that one commits, nothing is paid', async function () {
    this.timeout(30_000)
    const { pkg, agentId, api } = await reseller(20)
    const before = await books(agentId)
    const warm = await one<{ id: number }>('SELECT id FROM orders WHERE agent_id = :id', { id: agentId })
    // Another request's key, taken and not yet committed.
    const other = new pg.Client({ connectionString: app().db.url })
    const probe = new pg.Client({ connectionString: app().db.url })
    await other.connect()
    await probe.connect()
    try {
      await other.query('BEGIN')
      await other.query(`INSERT INTO idempotency_keys (agent_id, key, request_hash, order_id) VALUES ($1, 'held', 'another body', $2)`, [agentId, warm.id])
      const mine = api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110001' }, { 'Idempotency-Key': 'held' })
      await waitingLocks(1)
      // The other request now moves the same wallet, as its own debit would: the waiting one must not hold the row
      // (if it did, the two would wait on each other). NOWAIT: a held row is an error at once, not a deadlock later.
      await probe.query('BEGIN')
      await probe.query('SELECT 1 FROM wallets WHERE agent_id = $1 FOR UPDATE NOWAIT', [agentId])
      await probe.query('ROLLBACK')
      await other.query('SELECT 1 FROM wallets WHERE agent_id = $1 FOR UPDATE NOWAIT', [agentId])
      await other.query('COMMIT')
      const out = await mine
      // The key was used for another body: refused as any reuse of a key, and nothing of this attempt kept.
      expect(out.status, out.text).to.equal(422)
    } finally {
      await other.query('ROLLBACK').catch(() => {})
      await probe.query('ROLLBACK').catch(() => {})
      await other.end()
      await probe.end()
    }
    expect(await books(agentId)).to.deep.equal({ ...before, keys: before.keys + 1 })
  })

  it('a request whose Idempotency-Key another transaction held and gave up is placed and paid once', async function () {
    this.timeout(30_000)
    const { pkg, agentId, api } = await reseller(20)
    const before = await books(agentId)
    const warm = await one<{ id: number }>('SELECT id FROM orders WHERE agent_id = :id', { id: agentId })
    const other = new pg.Client({ connectionString: app().db.url })
    await other.connect()
    try {
      await other.query('BEGIN')
      await other.query(`INSERT INTO idempotency_keys (agent_id, key, request_hash, order_id) VALUES ($1, 'dropped', 'x', $2)`, [agentId, warm.id])
      const mine = api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110002' }, { 'Idempotency-Key': 'dropped' })
      await waitingLocks(1)
      await other.query('SELECT 1 FROM wallets WHERE agent_id = $1 FOR UPDATE NOWAIT', [agentId])
      await other.query('ROLLBACK')
      const out = await mine
      expect(out.status, out.text).to.equal(201)
      expect(out.body.order).to.include({ paymentStatus: 'SUCCESS' })
    } finally {
      await other.query('ROLLBACK').catch(() => {})
      await other.end()
    }
    expect(await books(agentId)).to.deep.equal(onePaidOrder(before))
  })

  it('two requests with one key at once: one order, one debit, both answered with it', async function () {
    this.timeout(30_000)
    const { pkg, agentId, api } = await reseller(20)
    const before = await books(agentId)
    const locker = new pg.Client({ connectionString: app().db.url })
    await locker.connect()
    try {
      // The wallet held, so the first request stops inside its statement with its key taken.
      await locker.query('BEGIN')
      await locker.query('SELECT 1 FROM wallets WHERE agent_id = $1 FOR UPDATE', [agentId])
      const body = { packageId: pkg.id, recipientNumber: '0241110003' }
      const first = api.post('/api/v1/orders', body, { 'Idempotency-Key': 'twice' })
      await waitingLocks(1)
      const second = api.post('/api/v1/orders', body, { 'Idempotency-Key': 'twice' })
      await waitingLocks(2)
      await locker.query('COMMIT')
      const [f, s] = await Promise.all([first, second])
      expect([f.status, s.status], f.text + s.text).to.deep.equal([201, 201])
      expect(s.headers.get('idempotent-replayed')).to.equal('true')
      expect(s.body.order.id).to.equal(f.body.order.id)
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end()
    }
    expect(await books(agentId)).to.deep.equal(onePaidOrder(before))
  })

  it('two keys on one wallet that covers one of them, at once: one is paid, the other refused as today, nothing of it written', async function () {
    this.timeout(30_000)
    const { pkg, agentId, api } = await reseller(9)
    const before = await books(agentId)
    expect(before.balance).to.equal(900 - 450)
    const locker = new pg.Client({ connectionString: app().db.url })
    await locker.connect()
    let answers: { status: number; body: any }[]
    try {
      await locker.query('BEGIN')
      await locker.query('SELECT 1 FROM wallets WHERE agent_id = $1 FOR UPDATE', [agentId])
      const a = api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110004' }, { 'Idempotency-Key': 'left' })
      const b = api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110005' }, { 'Idempotency-Key': 'right' })
      await waitingLocks(2)
      await locker.query('COMMIT')
      answers = await Promise.all([a, b])
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end()
    }
    expect(answers.map((r) => r.status).sort()).to.deep.equal([201, 402])
    const refused = answers.find((r) => r.status === 402)!
    expect(refused.body).to.include({ error: 'Insufficient wallet balance', balance: 0 })
    expect(await books(agentId)).to.deep.equal({ ...onePaidOrder(before), balance: 0 })
  })

  it('a wallet that does not cover the order: refused with its balance, nothing written, the key left free', async () => {
    const { pkg, agentId, api } = await reseller(6)
    const before = await books(agentId)
    const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110006' }, { 'Idempotency-Key': 'poor' })
    expect(out.status, out.text).to.equal(402)
    expect(out.body).to.include({ error: 'Insufficient wallet balance', balance: 1.5 })
    expect(await books(agentId)).to.deep.equal(before)
  })
})
