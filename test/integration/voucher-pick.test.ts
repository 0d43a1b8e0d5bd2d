import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createVoucherQueries } from '../../server/services/vouchers/queries.ts'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// A sale's cards are picked once, whatever plan PostgreSQL chooses. With hash joins, sorts, hash aggregates and
// materialising turned off the planner can only join a pick written as `IN (subquery)` by a nested loop that runs
// the pick again for every row: each run skips the rows the same UPDATE already marked, so one sale of 1 card
// took all 150 (what a race of 200 settlements showed once in CI, where the planner chose that plan itself).
const PLANS_THAT_RERUN = ['enable_hashjoin', 'enable_mergejoin', 'enable_material', 'enable_sort', 'enable_hashagg']

describe('voucher cards picked once per sale', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it('a sale of 1 or 3 cards takes exactly that many, under any join plan', async () => {
    const productId = await checkerWithStock(await adminClient(), 150)
    const sequelize = app().db.sequelize
    const queries = createVoucherQueries(sequelize)
    for (const [n, tid] of [
      [1, 'T-PICK-1'],
      [3, 'T-PICK-3']
    ] as const) {
      const taken = await sequelize.transaction(async (t) => {
        for (const setting of PLANS_THAT_RERUN) await sequelize.query(`SET LOCAL ${setting} = off`, { transaction: t })
        return queries.takeCards(productId, n, tid, t)
      })
      expect(taken, `a sale of ${n}`).to.have.length(n)
    }
    const sold = await sequelize.query<{ payment_transaction_id: string; n: string }>(
      `SELECT payment_transaction_id, count(*) AS n FROM voucher_cards WHERE status = 'SOLD' GROUP BY 1 ORDER BY 1`,
      { type: QueryTypes.SELECT }
    )
    expect(sold.map((r) => [r.payment_transaction_id, Number(r.n)])).to.deep.equal([
      ['T-PICK-1', 1],
      ['T-PICK-3', 3]
    ])
  })
})
