import { expect } from 'chai'
import { down } from '../../models/migrations/382_payments_ext_index_dropped.ts'
import { app } from '../helpers/server.ts'

const INDEXES = "SELECT indexname FROM pg_indexes WHERE tablename = 'payments' AND indexname = 'payments_ext_idx'"

// A payment is written several times in its life (insert, the start's answer, the settlement); an index no
// statement reads only adds to each of those writes.
describe("payments: no index on the gateway's own transaction id", () => {
  it('is not there after the migrations, and down puts it back', async () => {
    const { sequelize } = app().db
    expect(await sequelize.query(INDEXES, { type: 'SELECT' as never })).to.deep.equal([])
    const t = await sequelize.transaction()
    try {
      await down({ context: (sql) => sequelize.query(sql, { transaction: t }) })
      expect(await sequelize.query(INDEXES, { type: 'SELECT' as never, transaction: t })).to.deep.equal([{ indexname: 'payments_ext_idx' }])
    } finally {
      await t.rollback()
    }
  })
})
