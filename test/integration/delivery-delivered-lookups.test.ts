import { expect } from 'chai'
import { QueryTypes, type Sequelize } from 'sequelize'
import { connect } from '../../models/db.ts'
import { createDeliveryQueries, statusChange } from '../../server/services/delivery/queries.ts'
import { app, resetDb } from '../helpers/server.ts'

// The batch's DELIVERED statement finds its orders and the texts it claims by their ids, whatever else is
// open: a backlog of open orders and pending texts (a burst, a slow vendor) is not read by each batch.
// Counted in index entries read (PostgreSQL's own statistics, flushed on demand), never in time.

const BACKLOG = 400
/** A full claim's orders (DELIVERY_BATCH_MAX). */
const BATCH = 16

describe("delivery: a batch's DELIVERED statement reads its own orders and texts, not the backlog", () => {
  let own: Sequelize

  before(() => {
    // One connection of its own, so its statistics are flushed on demand (pg_stat_force_next_flush).
    own = connect(app().db.url, undefined, { poolMax: 1 }).sequelize
  })
  after(async () => own.close())
  beforeEach(resetDb)

  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => own.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  /** Index entries read so far from the partial indexes of open orders and pending texts. */
  async function entriesRead(): Promise<{ orders: number; texts: number }> {
    await q('SELECT pg_stat_force_next_flush()')
    const rows = await q<{ name: string; n: string }>(
      `SELECT indexrelname AS name, idx_tup_read AS n FROM pg_stat_user_indexes WHERE indexrelname IN ('orders_delivery_open_idx', 'sms_outbox_pending_idx')`
    )
    const n = (name: string) => Number(rows.find((r) => r.name === name)?.n ?? 0)
    return { orders: n('orders_delivery_open_idx'), texts: n('sms_outbox_pending_idx') }
  }

  it('marks a claim of 16 orders DELIVERED and claims their texts with a backlog of 400 open orders and 400 pending texts, reading neither', async () => {
    // Statistics taken before the backlog came, as in a burst (autovacuum's analyze lags behind): the planner
    // then thinks the partial indexes nearly empty, which is when walking them looked cheapest.
    await q('ANALYZE orders, sms_outbox')
    await q(
      `INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, payment_phone_number,
         package_name, delivery_status, delivery_attempts, delivery_vendor, delivery_claim)
       SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'SUCCESS', 'lookups-' || g, '0241234567', '1GB daily', 'PROCESSING', 1, 'simulator', 'other-pool'
       FROM generate_series(1, :n) g RETURNING id`,
      { n: BACKLOG + BATCH }
    )
    await q(
      `INSERT INTO sms_outbox (to_phone, message, status, sensitive, created_at, updated_at)
       SELECT '233241234567', 'Order ' || g || ' received', 'QUEUED', false, now(), now() FROM generate_series(1, :n) g RETURNING id`,
      { n: BACKLOG + BATCH }
    )
    const ids = Array.from({ length: BATCH }, (_, i) => BACKLOG + 1 + i)
    const queries = createDeliveryQueries(own)
    const before = await entriesRead()
    const done = await queries.markDelivered(
      ids.map((id) => ({ id, reference: `ref-${id}`, via: 'simulator', phone: '233241234567', message: 'Your data has been delivered' })),
      ['QUEUED', 'PROCESSING'],
      '',
      { ids, provider: 'log' }
    )
    const after = await entriesRead()

    expect(done.orders.sort((a, b) => a - b)).to.deep.equal(ids)
    expect(done.claimed.map((c) => c.id).sort((a, b) => a - b)).to.deep.equal([...ids, ...ids.map((id) => id + BATCH)])
    const entries = await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE action = 'ORDER_DELIVERED'`)
    expect(Number(entries[0]!.n)).to.equal(BATCH)
    const open = await q<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE delivery_status = 'PROCESSING'`)
    expect(Number(open[0]!.n)).to.equal(BACKLOG)
    expect(after.orders - before.orders, 'open orders read').to.be.below(BACKLOG / 10)
    expect(after.texts - before.texts, 'pending texts read').to.be.below(BACKLOG / 10)
  })

  it("a batch job's claim of 16 QUEUED orders with a backlog of 400 open orders does not read the backlog", async () => {
    await q('ANALYZE orders')
    await q(
      `INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, payment_phone_number,
         package_name, delivery_status, delivery_attempts, delivery_vendor, delivery_claim)
       SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'SUCCESS', 'lookups-' || g, '0241234567', '1GB daily',
         CASE WHEN g > :n - :batch THEN 'QUEUED' ELSE 'PROCESSING' END, 0, 'simulator', NULL
       FROM generate_series(1, :n) g RETURNING id`,
      { n: BACKLOG + BATCH, batch: BATCH }
    )
    const ids = Array.from({ length: BATCH }, (_, i) => BACKLOG + 1 + i)
    const change = statusChange(0, 'PROCESSING', ['QUEUED', 'PROCESSING'], { vendorByNetwork: { MTN: 'simulator' }, attempts: 'increment' })
    change.values[0] = ids
    const before = await entriesRead()
    const claimed = await createDeliveryQueries(own).claimMany(change, '')
    const after = await entriesRead()

    expect(claimed.map((o) => Number(o.id)).sort((a, b) => a - b)).to.deep.equal(ids)
    expect(after.orders - before.orders, 'open orders read').to.be.below(BACKLOG / 10)
  })
})
