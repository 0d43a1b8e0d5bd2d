import { app } from './server.ts'

/**
 * n paid orders already delivered, in one statement past the triggers (none becomes an export
 * candidate, ADR 0050): a large orders table around a few candidates, as a shop has after months.
 */
export async function deliveredOrders(n: number): Promise<void> {
  await app().db.sequelize.transaction(async (t) => {
    await app().db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction: t })
    await app().db.sequelize.query(
      `INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, delivered, delivery_status)
       SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'SUCCESS', 'done' || g, true, 'DELIVERED' FROM generate_series(1, :n) g`,
      { replacements: { n }, transaction: t }
    )
  })
}
