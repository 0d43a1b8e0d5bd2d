import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { app, resetDb } from '../helpers/server.ts'
import { resellerWithKey } from '../helpers/reseller.ts'

// A wallet order's Idempotency-Key is read by the API key's own statement (ADR 0065), before the order's
// transaction. A retry sent while the first try is still in its transaction reads the key as unused there; the
// key's unique index in the order's own statement must still make it wait, write nothing and answer with the
// first try's order, with the wallet debited once.

const one = async <T extends object>(sql: string, replacements: Record<string, unknown>) =>
  (await app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }))[0]!

/** Waits (no time limit of its own: mocha's timeout ends it) until `n` lock requests wait in the database. */
async function waitingLocks(n: number) {
  for (;;) {
    const { waiting } = await one<{ waiting: number }>('SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted', {})
    if (waiting >= n) return
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe("a wallet order's Idempotency-Key read by the API key's statement (ADR 0065)", () => {
  beforeEach(resetDb)

  it('a retry sent while the first try holds its key in an open transaction waits on the key: one order, one debit, both answered with it', async function () {
    this.timeout(30_000)
    const { pkg, a, api } = await resellerWithKey(20, 'Race')
    // Once, so neither request below writes the key's "last used" mark.
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241110000' }, { 'Idempotency-Key': 'warm' })).status).to.equal(201)

    const locker = new pg.Client({ connectionString: app().db.url })
    await locker.connect()
    try {
      // The wallet's row held: the first try stops at its debit, after its order's statement recorded the key.
      await locker.query('BEGIN')
      await locker.query('SELECT 1 FROM wallets WHERE agent_id = $1 FOR UPDATE', [a.agent.id])
      const body = { packageId: pkg.id, recipientNumber: '0241110001' }
      const first = api.post('/api/v1/orders', body, { 'Idempotency-Key': 'raced' })
      await waitingLocks(1)
      // The retry's key statement finds no committed use of the key; its order's statement waits on the key's index.
      const retry = api.post('/api/v1/orders', body, { 'Idempotency-Key': 'raced' })
      await waitingLocks(2)
      await locker.query('COMMIT')
      const [f, r] = await Promise.all([first, retry])
      expect(f.status, f.text).to.equal(201)
      expect(r.status, r.text).to.equal(201)
      expect(r.headers.get('idempotent-replayed')).to.equal('true')
      expect(r.body.order.id).to.equal(f.body.order.id)
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end()
    }
    const orders = await one<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE agent_id = :id', { id: a.agent.id })
    expect(orders.n).to.equal(2)
    const entries = await one<{ n: number; sum: number }>(
      "SELECT count(*)::int AS n, sum(amount_pesewas)::int AS sum FROM wallet_entries WHERE agent_id = :id AND type = 'ORDER'",
      { id: a.agent.id }
    )
    expect(entries).to.deep.equal({ n: 2, sum: -900 })
    const w = await one<{ balance: number }>('SELECT balance_pesewas::int AS balance FROM wallets WHERE agent_id = :id', { id: a.agent.id })
    expect(w.balance).to.equal(2000 - 900)
    const audits = await one<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'PAYMENT_SUCCESS'", {})
    expect(audits.n).to.equal(2)
  })
})
