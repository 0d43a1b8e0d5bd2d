import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { deliveryWith } from '../helpers/delivery.ts'
import { app, resetDb } from '../helpers/server.ts'

// A pump's claim with the shipped settings: its fixed statements (the claim, the vendor's key write, the
// DELIVERED statement with its entries and texts, the texts' SENT mark) serve up to DELIVERY_BATCH_MAX orders,
// so the larger the claim under a steady stream of paid orders, the fewer statements per order. Counts
// statements and orders, never times.

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

/** The statements the app's pg connections send while fn runs, by their text. */
async function sentDuring<T>(fn: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const query = pg.Client.prototype.query
  const sent: string[] = []
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const c = args[0] as string | { text?: string }
    sent.push((typeof c === 'string' ? c : (c?.text ?? '')).trim())
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    return { result: await fn(), sent }
  } finally {
    pg.Client.prototype.query = query
  }
}

describe("delivery pump: a claim's size with the shipped settings", function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it('33 paid orders waiting: one claim of the 32 oldest, one DELIVERED statement for them, each delivered once; the 33rd waits for the next run', async () => {
    // Visitors' orders with their pending payments (as placing them writes them), then each payment settled
    // by the gateway's word through the real settlement, which queues its order for the pump.
    const pending = await q<{ transaction_id: string; order_id: string }>(
      `WITH o AS (
         INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, payment_phone_number, package_name)
         SELECT '02014400' || lpad(g::text, 2, '0'), 'MTN', 1024, 500, 'PENDING', 'claim-size-' || g, '0241234567', '1GB daily' FROM generate_series(1, 33) g
         RETURNING id, payment_transaction_id)
       INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, order_id)
       SELECT payment_transaction_id, 'data', 'simulator', 'momo', 'PENDING', 500, '0241234567', id FROM o RETURNING transaction_id, order_id`
    )
    const ids = pending.map((p) => Number(p.order_id)).sort((a, b) => a - b)
    for (const p of pending)
      await app().services.payments.settle(p.transaction_id, { status: 'SUCCESS', message: 'Approved', amountPesewas: 500, currency: 'GHS' })
    const [queued] = await q<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE id IN (:ids) AND delivery_status = 'QUEUED'`, { ids })
    expect(Number(queued!.n)).to.equal(33)
    // The test app's env is the shipped defaults for delivery.
    const pump = deliveryWith({})
    const { result, sent } = await sentDuring(() => pump.pump(null))
    expect(result).to.equal(32)
    const claims = sent.filter((s) => /^WITH before AS MATERIALIZED \(\s*SELECT o\.id FROM orders o WHERE o\.delivery_status = 'QUEUED'/.test(s))
    const delivered = sent.filter((s) => /^WITH v AS \(SELECT \* FROM unnest\(/.test(s) && /'DELIVERED'/.test(s))
    expect([claims.length, delivered.length]).to.deep.equal([1, 1])
    const rows = await q<{ id: string; delivery_status: string }>('SELECT id, delivery_status FROM orders WHERE id IN (:ids) ORDER BY id', { ids })
    expect(rows.filter((r) => r.delivery_status === 'DELIVERED').map((r) => Number(r.id))).to.deep.equal(ids.slice(0, 32))
    expect(rows.filter((r) => r.delivery_status === 'QUEUED').map((r) => Number(r.id))).to.deep.equal([ids[32]])
    expect(pump.simulatorState().calls).to.equal(32)
    const [audits] = await q<{ n: string; orders: string }>(
      `SELECT count(*) AS n, count(DISTINCT resource_id) AS orders FROM audit_logs WHERE action = 'ORDER_DELIVERED'`
    )
    expect([Number(audits!.n), Number(audits!.orders)]).to.deep.equal([32, 32])
    expect(await pump.pump(null)).to.equal(1)
    const [left] = await q<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE id IN (:ids) AND delivery_status <> 'DELIVERED'`, { ids })
    expect(Number(left!.n)).to.equal(0)
  })
})
