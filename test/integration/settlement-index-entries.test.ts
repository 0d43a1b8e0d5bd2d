import { expect } from 'chai'
import { QueryTypes, type Transaction } from 'sequelize'
import { down } from '../../models/migrations/387_settlement_index_entries.ts'
import { genericPlan } from '../helpers/generic-plan.ts'
import { indexRecords } from '../helpers/index-records.ts'
import { indexesAfterDown, rolledBack } from '../helpers/rolled-back.ts'
import { app, resetDb } from '../helpers/server.ts'
import { pendingSimulatorOrder } from '../helpers/simulator-order.ts'

// The index entries a paid order's settlement writes (ADR 0069), read from the WAL its commit wrote: an index that
// only repeats another's keys, or that holds an entry for every visitor's row where every lookup names a user or an
// agent, costs an entry per paid order for no reader.

const db = () => app().db.sequelize
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
  db().query<T>(text, { replacements, type: QueryTypes.SELECT, transaction }) as Promise<T[]>

const GONE = ['commissions_archived_idx', 'commissions_agent_idx', 'audit_time_idx']
const VISITORS_LEFT_OUT = ['orders_user_idx', 'payments_agent_idx']

const SETTLEMENT_TABLES = ['orders', 'payments', 'commissions', 'audit_logs']
const settlementIndexRecords = (fn: () => Promise<unknown>) => indexRecords(SETTLEMENT_TABLES, fn, ['Btree', 'Gin'])

const approved = { status: 'SUCCESS' as const, message: 'Approved', amountPesewas: 450, currency: 'GHS' }

/**
 * The plan's text for `text` run as a generic plan (a parameter, as the foreign keys' own lookups run), with no seq
 * scan and no sort: on the test's few rows a sort is cheaper than an ordered index scan whenever the tables' statistics
 * are small, so the question asked is whether an index serves the lookup and its order, not what a tiny table costs.
 */
async function planOf(text: string, t: Transaction): Promise<string> {
  await db().query('SET LOCAL enable_seqscan = off', { transaction: t })
  await db().query('SET LOCAL enable_sort = off', { transaction: t })
  return genericPlan(text, t)
}

describe("a paid order's settlement: the index entries it writes", function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it("a visitor's settlement writes no entry in an index that repeats another's keys or leaves visitors out", async () => {
    const o = await pendingSimulatorOrder()
    await app().services.settings.get()
    const written = await settlementIndexRecords(async () => {
      expect((await app().services.payments.settle(o.tid, approved)).settled).to.equal(true)
    })
    // The settlement wrote its entries (the payment's, the order's, the commission's, the audit entry's) ...
    for (const name of ['payments_pkey', 'orders_pkey', 'commissions_order_id_key', 'audit_time_id_idx'])
      expect(written[name], JSON.stringify(written)).to.be.greaterThan(0)
    // ... and none in these.
    for (const name of [...GONE, ...VISITORS_LEFT_OUT]) expect(written[name], JSON.stringify(written)).to.equal(undefined)
    const present = await sql<{ name: string }>('SELECT indexname AS name FROM pg_indexes WHERE indexname IN (:names)', { names: GONE })
    expect(present).to.deep.equal([])
  })

  it('lookups by a user or an agent still go through an index', async () => {
    await rolledBack(async (t) => {
      expect(await planOf('UPDATE ONLY commissions SET agent_id = NULL WHERE $1 OPERATOR(pg_catalog.=) agent_id', t)).to.match(
        /(Index Scan using|Bitmap Index Scan on) commissions_agent_(report|time)_idx\b/
      )
      expect(await planOf('UPDATE ONLY orders SET user_id = NULL WHERE $1 OPERATOR(pg_catalog.=) user_id', t)).to.match(
        /(Index Scan using|Bitmap Index Scan on) orders_user_idx\b/
      )
      expect(await planOf('UPDATE ONLY payments SET agent_id = NULL WHERE $1 OPERATOR(pg_catalog.=) agent_id', t)).to.match(
        /(Index Scan using|Bitmap Index Scan on) payments_agent_idx\b/
      )
      expect(await planOf('SELECT id FROM commissions c WHERE c.archived = ($1 = 0) ORDER BY c.created_at DESC, c.id DESC LIMIT 50', t)).to.match(
        /Index Scan Backward using commissions_report_idx/
      )
      const audit = await planOf('SELECT id FROM audit_logs WHERE $1 > 0 ORDER BY timestamp DESC LIMIT 50', t)
      expect(audit, audit).to.match(/Index (Only )?Scan using audit_time_id_idx/)
    })
  })

  it('down puts the indexes back as they were', async () => {
    expect(await indexesAfterDown(down, [...GONE, ...VISITORS_LEFT_OUT])).to.deep.equal([
      'CREATE INDEX audit_time_idx ON audit_logs USING btree ("timestamp" DESC)',
      'CREATE INDEX commissions_agent_idx ON commissions USING btree (agent_id)',
      'CREATE INDEX commissions_archived_idx ON commissions USING btree (archived, created_at DESC)',
      'CREATE INDEX orders_user_idx ON orders USING btree (user_id, created_at DESC)',
      'CREATE INDEX payments_agent_idx ON payments USING btree (agent_id)'
    ])
  })
})
