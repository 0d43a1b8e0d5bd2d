import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { transactionOn } from '../../models/transaction.ts'
import { pool, poolIdleWithin } from '../helpers/pool.ts'
import { app, resetDb } from '../helpers/server.ts'
import { resellerWithKey } from '../helpers/reseller.ts'

// The orders' transaction sends its START TRANSACTION and COMMIT straight on its connection (ADR 0065), with
// Sequelize's rules: one connection, returned once; an error rolls back; afterCommit hooks after the commit.

const db = () => app().db.sequelize
const count = async (where: string) =>
  (await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE ${where}`, { type: QueryTypes.SELECT }))[0]!.n

const write = (t: unknown, action: string) =>
  db().query(`INSERT INTO audit_logs (timestamp, action, resource, severity, details) VALUES (now(), :action, 'TEST', 'LOW', '{}'::jsonb)`, {
    replacements: { action },
    transaction: t as never
  })

describe("the orders' transaction: START TRANSACTION and COMMIT on the connection (ADR 0065)", () => {
  beforeEach(resetDb)

  it('commits what it wrote, runs afterCommit hooks once the commit is seen by others, and returns its connection', async () => {
    const seenByHook: number[] = []
    const out = await transactionOn(db(), async (t) => {
      await write(t, 'TX_COMMITTED')
      t.afterCommit(async () => {
        seenByHook.push(await count(`action = 'TX_COMMITTED'`))
      })
      // Not yet visible to another connection.
      expect(await count(`action = 'TX_COMMITTED'`)).to.equal(0)
      return 'done'
    })
    expect(out).to.equal('done')
    expect(seenByHook).to.deep.equal([1])
    expect(await poolIdleWithin(2_000), 'a connection still out').to.equal(true)
  })

  it('an error rolls back what was written, is thrown again, runs no hook, and returns the connection; so do many in turn', async () => {
    const size = pool().size
    let hooks = 0
    for (let i = 0; i < 20; i++) {
      const err = await transactionOn(db(), async (t) => {
        await write(t, 'TX_ROLLED_BACK')
        t.afterCommit(() => {
          hooks++
        })
        throw new Error(`refused ${i}`)
      }).catch((e: Error) => e)
      expect((err as Error).message).to.equal(`refused ${i}`)
      // A statement that fails inside aborts the transaction: rolled back too, its error thrown.
      const failed = await transactionOn(db(), async (t) => {
        await write(t, 'TX_ROLLED_BACK')
        await db().query('SELECT 1/0', { transaction: t })
      }).catch((e: Error) => e)
      expect((failed as Error).message).to.match(/division by zero/)
    }
    expect(await count(`action = 'TX_ROLLED_BACK'`)).to.equal(0)
    expect(hooks).to.equal(0)
    expect(await poolIdleWithin(2_000), 'a connection still out').to.equal(true)
    expect(pool().size).to.be.at.most(Math.max(size, 1) + 1)
  })

  it("a wallet order's transaction does not go through Sequelize's query path for its START TRANSACTION and COMMIT", async () => {
    const { pkg, api } = await resellerWithKey(20, 'Tx')
    const viaSequelize: string[] = []
    const hook = (_options: unknown, query: { sql?: string }) => {
      if (query?.sql) viaSequelize.push(query.sql)
    }
    db().addHook('afterQuery', 'tx-test', hook as never)
    try {
      const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241119999' }, { 'Idempotency-Key': 'tx-1' })
      expect(out.status, out.text).to.equal(201)
    } finally {
      db().removeHook('afterQuery', 'tx-test')
    }
    expect(viaSequelize.filter((s) => /^(START TRANSACTION|COMMIT|ROLLBACK)/.test(s))).to.deep.equal([])
  })
})
