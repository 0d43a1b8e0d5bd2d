import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { DeliveryRow } from './types.ts'

// The delivery capability's reads, typed: counts come back as numbers, columns in camelCase, except
// `DeliveryRow`, the order as `delivery.changed` carries it to every subscriber (types.ts). The
// status changes themselves are state.ts's prepared statements, built from each change's shape.

/** An order a worker left QUEUED or PROCESSING too long: accepted by a vendor (a reference) or not. */
export interface StaleDelivery {
  id: number
  deliveryReference: string | null
}

export type DeliveryQueries = ReturnType<typeof createDeliveryQueries>

export function createDeliveryQueries(sequelize: Sequelize) {
  const q = <T extends object = Record<string, any>>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const count = async (sql: string) => Number((await q(sql))[0]?.n ?? 0)

  return {
    /** The order's delivery as it stands (orders_view: an exported order reads as delivered by hand). */
    async load(orderId: number): Promise<DeliveryRow | null> {
      return (await q<DeliveryRow>('SELECT * FROM orders_view WHERE id = :id', { id: orderId }))[0] ?? null
    },

    /** Orders QUEUED or PROCESSING untouched for `seconds`, the oldest first (at most 500). */
    async stale(seconds: number): Promise<StaleDelivery[]> {
      const rows = await q(
        `SELECT id, delivery_reference FROM orders WHERE delivery_status IN ('QUEUED','PROCESSING')
           AND updated_at < now() - make_interval(secs => :s) ORDER BY updated_at LIMIT 500`,
        { s: seconds }
      )
      return rows.map((r) => ({ id: Number(r.id), deliveryReference: r.delivery_reference ?? null }))
    },

    /** The order a vendor knows by this reference, or null. */
    async orderIdByReference(vendor: string, reference: string): Promise<number | null> {
      const [row] = await q('SELECT id FROM orders WHERE delivery_vendor = :v AND delivery_reference = :ref', { v: vendor, ref: reference })
      return row ? Number(row.id) : null
    },

    // An exported FAILED order was delivered by hand (MANUAL): not 'needs attention'.
    needsAttention: () =>
      count(`SELECT count(*) AS n FROM orders o WHERE delivery_status = 'FAILED' AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)`),

    inFlight: () => count(`SELECT count(*) AS n FROM orders WHERE delivery_status IN ('QUEUED','PROCESSING')`),

    /** Whether the agent ticked texts for its bulk order's recipients (ADR 0039). */
    async batchTexts(batchId: number, t: Transaction): Promise<boolean> {
      const [row] = await q('SELECT notify_sms FROM order_batches WHERE id = :id', { id: batchId }, t)
      return !!row?.notify_sms
    },

    async agentPhone(agentId: number, t: Transaction): Promise<string | null> {
      const [row] = await q('SELECT phone FROM agents WHERE id = :id', { id: agentId }, t)
      return row?.phone ?? null
    }
  }
}
