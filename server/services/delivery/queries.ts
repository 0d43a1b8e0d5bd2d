import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'
import type { ClaimedText } from '../sms/index.ts'
import { EXPORT_LOCK } from './export-lock.ts'
import type { DeliveryRow, DeliveryStatus, StatusDetails } from './types.ts'

// Every statement of the delivery capability, typed: counts come back as numbers, columns in
// camelCase, except `DeliveryRow`, the order as `delivery.changed` carries it to every subscriber
// (types.ts). The status changes are named statements (ADR 0024), built from each change's shape.

/** An order a worker left QUEUED or PROCESSING too long: accepted by a vendor (a reference) or not. */
export interface StaleDelivery {
  id: number
  deliveryReference: string | null
}

/** A status change's SET items and parameters ($1 the order, $2 the status, $3 the statuses it may come from). */
export interface StatusChange {
  from: DeliveryStatus[]
  values: unknown[]
  sets: string[]
}

/** One order a vendor delivered in a batch, with the buyer's text (null when none is sent). */
export interface DeliveredLine {
  id: number
  reference: string | null
  via: string
  phone: string | null
  message: string | null
}

export function statusChange(orderId: number, next: DeliveryStatus, from: DeliveryStatus[], details: StatusDetails): StatusChange {
  const values: unknown[] = [orderId, next, from]
  const param = (v: unknown) => `$${values.push(v)}`
  const sets = ['delivery_status = $2', 'updated_at = now()']
  if (details.vendor !== undefined) sets.push(`delivery_vendor = ${param(details.vendor)}`)
  // A worker's claim: the vendor is the order's own, or its network's from settings; simulated money
  // only ever goes to the simulator.
  if (details.vendorByNetwork)
    sets.push(
      `delivery_vendor = CASE WHEN o.simulated THEN 'simulator' ELSE COALESCE(o.delivery_vendor, ${param(JSON.stringify(details.vendorByNetwork))}::jsonb ->> o.network) END`
    )
  // Whose claim it is: a pump's names its pool (the abandoned-claim check reads it); any other change clears it.
  sets.push(details.claim ? `delivery_claim = ${param(details.claim)}` : 'delivery_claim = NULL')
  if (details.reference !== undefined) sets.push(`delivery_reference = ${param(details.reference)}`)
  if (details.error !== undefined) sets.push(`delivery_error = ${param(details.error?.slice(0, 500) ?? null)}`)
  if (details.attempts === 'increment') sets.push('delivery_attempts = delivery_attempts + 1')
  if (details.attempts === 'reset') sets.push('delivery_attempts = 0')
  if (next === 'DELIVERED' || next === 'MANUAL') sets.push('delivered = true', 'delivered_at = COALESCE(delivered_at, now())')
  else sets.push('delivered = false', 'delivered_at = NULL')
  return { from, values, sets }
}

/**
 * The payment's own UPDATE of a data order also queues it for delivery (ADR 0024): these SET items,
 * with `$flag` true when delivery is automatic, move NOT_STARTED -> QUEUED like setDeliveryStatus
 * would (attempts reset, no error). The order was unpaid until that statement, so no export can hold
 * it and EXPORT_LOCK is not needed. The settlement then calls `queuedByPayment` for its `delivery.changed`.
 */
export const queueOnPaymentSets = (flag: string) => {
  const now = `${flag} AND delivery_status = 'NOT_STARTED'`
  return `delivery_status = CASE WHEN ${now} THEN 'QUEUED' ELSE delivery_status END,
    delivery_attempts = CASE WHEN ${now} THEN 0 ELSE delivery_attempts END,
    delivery_error = CASE WHEN ${now} THEN NULL ELSE delivery_error END`
}

/** The condition (on `o`) that leaves out orders placed by an agent, sold through a shop, or of these channels. */
export function kindCondition(skip: { noAgent: boolean; noShop: boolean; notChannels: string[] }): string {
  const conditions = []
  if (skip.noAgent) conditions.push('o.agent_id IS NULL')
  if (skip.noShop) conditions.push('o.shop_id IS NULL')
  for (const c of skip.notChannels) conditions.push(`o.channel <> '${c}'`)
  return conditions.map((c) => `AND ${c}`).join(' ')
}

export type DeliveryQueries = ReturnType<typeof createDeliveryQueries>

export function createDeliveryQueries(sequelize: Sequelize) {
  const q = <T extends object = Record<string, any>>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const count = async (sql: string) => Number((await q(sql))[0]?.n ?? 0)
  const run = preparedFor(sequelize)

  return {
    /**
     * The conditional UPDATE. The old status comes back through a self-join on the row as it was before
     * this UPDATE. An exported order (order_exports, ADR 0021) is MANUAL, which nothing leaves: never
     * changed here. One named statement per shape of this UPDATE, a handful in all.
     * `only`: a condition on the order's kind (the paths that tell no subscriber).
     */
    async changeStatus(change: StatusChange, details: StatusDetails, t: Transaction | null, only = '') {
      const [row] = await run<DeliveryRow & { old_status: DeliveryStatus }>(
        `UPDATE orders o SET ${change.sets.join(', ')}
         FROM (SELECT id, delivery_status AS old_status FROM orders WHERE id = $1 FOR UPDATE) before${details.noFlushWait ? `, ${NO_FLUSH_WAIT}` : ''}
         WHERE o.id = $1 AND before.id = o.id AND o.payment_status = 'SUCCESS' AND o.delivery_status = ANY($3::text[])
           ${details.unconfirmed ? 'AND o.delivery_reference IS NULL' : ''} ${only}
           AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)
         RETURNING o.*, before.old_status`,
        change.values,
        t
      )
      return row ?? null
    },

    /**
     * A batch's claim: the same SET items for the orders of $1 (an array), locked in id order, autocommitted. The
     * status is checked as `before` locked it, as in `markDelivered`: the orders are found by id, never by
     * walking the index of every open order (`before` is materialized, so that check is not pushed into it).
     */
    claimMany: (change: StatusChange, only: string) =>
      run<DeliveryRow>(
        `WITH before AS MATERIALIZED (SELECT id, delivery_status AS old_status FROM orders WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE)
         UPDATE orders o SET ${change.sets.join(', ')}
         FROM before, ${NO_FLUSH_WAIT}
         WHERE o.id = before.id AND o.payment_status = 'SUCCESS' AND o.delivery_status = before.old_status AND before.old_status = ANY($3::text[])
           AND o.delivery_reference IS NULL ${only}
           AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)
         RETURNING o.*`,
        change.values
      ),

    /**
     * The pump's claim (ADR 0056): up to $1 paid orders QUEUED with no attempt yet, taken in id order
     * from `orders_delivery_waiting_idx`, skipping rows another claim holds, with the same SET items as
     * a worker's claim and the claimer's pool id; the pick is a CTE so it runs once (a subquery joined in
     * the UPDATE may be scanned again per row, and SKIP LOCKED then skips the rows it just updated and
     * takes the next ones, past the LIMIT). Autocommitted (in `t` for the orders a subscriber acts on at
     * their claim, with what it writes), no wait for the WAL flush: lost to a
     * crash of PostgreSQL, the order is QUEUED again and the vendor is asked again under the same key.
     */
    claimWaiting: (change: StatusChange, only: string, t?: Transaction) =>
      run<DeliveryRow>(
        `WITH before AS MATERIALIZED (
           SELECT o.id FROM orders o WHERE o.delivery_status = 'QUEUED' AND o.delivery_attempts = 0 AND o.payment_status = 'SUCCESS'
             AND o.delivery_reference IS NULL ${only} AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)
           ORDER BY o.id LIMIT $1 FOR UPDATE SKIP LOCKED)
         UPDATE orders o SET ${change.sets.join(', ')}
         FROM before, ${NO_FLUSH_WAIT}
         WHERE o.id = before.id AND o.delivery_status = ANY($3::text[])
         RETURNING o.*`,
        change.values,
        t
      ),

    /**
     * Orders a pump claimed in a process that is gone (its pool's liveness connection closed, and the
     * claim older than `graceSeconds`, time for a new pool's connection to open), or that this pool
     * (`owner`) claimed but is not delivering (`inFlight` leaves them out) for 2 s (a claim whose answer
     * is still on its way is not in flight yet): the claim's answer or its outcome's write was lost with
     * the connection. Taken again by this claim. No vendor reference yet,
     * so the vendor is asked again under the order's key, never sent twice.
     */
    claimAbandoned(change: StatusChange, only: string, by: { livenessPrefix: string; graceSeconds: number; owner: string; inFlight: number[] }) {
      const values = [...change.values, by.graceSeconds, by.owner, by.inFlight]
      const [grace, owner, inFlight] = [values.length - 2, values.length - 1, values.length].map((n) => `$${n}`)
      const prefix = by.livenessPrefix
      return run<DeliveryRow>(
        `WITH before AS MATERIALIZED (
           SELECT o.id FROM orders o WHERE o.delivery_status = 'PROCESSING' AND o.delivery_claim IS NOT NULL AND o.delivery_reference IS NULL
             AND o.payment_status = 'SUCCESS' ${only}
             AND ((o.updated_at < now() - make_interval(secs => ${grace}::int)
                   AND o.delivery_claim NOT IN (SELECT substr(application_name, ${prefix.length + 1}) FROM pg_stat_activity WHERE application_name LIKE '${prefix}%'))
               OR (o.delivery_claim = ${owner}::text AND o.id <> ALL(${inFlight}::bigint[]) AND o.updated_at < now() - interval '2 seconds'))
             AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)
           ORDER BY o.id LIMIT $1 FOR UPDATE SKIP LOCKED)
         UPDATE orders o SET ${change.sets.join(', ')}
         FROM before, ${NO_FLUSH_WAIT}
         WHERE o.id = before.id AND o.delivery_status = ANY($3::text[])
         RETURNING o.*`,
        values
      )
    },

    /**
     * DELIVERED for these orders, each one's ORDER_DELIVERED entry and its buyer's text, in one statement.
     * The entry and the text are the rows audit.record and sms.send write (same columns). With `texts`, the
     * statement also claims for that provider (as the dispatcher's claim: SENDING, one attempt counted) the
     * buyers' texts it writes and those of `texts.ids` still QUEUED, so the caller sends them with no claim
     * of their own. Returns the ids of the orders changed, of the texts written, and the texts claimed.
     * Orders and texts are found by their ids alone: no condition implies the predicate of the partial indexes
     * of open orders or pending texts, whose plan walked every open order and pending text (the whole backlog)
     * for each batch. The status checked is the one the row had when `before` locked it, which is the row's
     * latest (the lock holds it), so the UPDATE's own condition compares it with that.
     */
    async markDelivered(
      lines: DeliveredLine[],
      from: DeliveryStatus[],
      only: string,
      texts?: { ids: number[]; provider: string }
    ): Promise<{ orders: number[]; sms: number[]; claimed: ClaimedText[] }> {
      const [row] = await run<{ orders: number[] | null; sms: number[] | null; claimed: Record<string, any>[] | null }>(
        `WITH v AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(id, reference, via, phone, message)),
         before AS (SELECT o.id, o.delivery_status AS old_status FROM orders o WHERE o.id = ANY($1::bigint[]) ORDER BY o.id FOR UPDATE),
         o AS (
           UPDATE orders o SET delivery_status = 'DELIVERED', updated_at = now(), delivery_reference = v.reference, delivery_error = NULL, delivery_claim = NULL,
             delivered = true, delivered_at = COALESCE(o.delivered_at, now())
           FROM v, before
           WHERE o.id = v.id AND before.id = o.id AND o.payment_status = 'SUCCESS' AND o.delivery_status = before.old_status
             AND before.old_status = ANY($6::text[]) ${only}
             AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)
           RETURNING o.id, o.delivery_vendor, o.delivery_reference, o.delivery_attempts, before.old_status, v.via, v.phone, v.message
         ),
         a AS (
           INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
           SELECT now(), NULL, 'ORDER_DELIVERED', 'ORDER', o.id::text, 'LOW', NULL,
             jsonb_build_object('deliveryStatus', 'DELIVERED', 'previous', o.old_status, 'vendor', o.delivery_vendor,
               'reference', o.delivery_reference, 'attempts', o.delivery_attempts, 'via', o.via)
           FROM o
         ),
         s AS (
           INSERT INTO sms_outbox (to_phone, message, status, sensitive, attempts, provider, created_at, updated_at)
           SELECT o.phone, o.message, CASE WHEN $8::text IS NULL THEN 'QUEUED' ELSE 'SENDING' END, false,
             CASE WHEN $8::text IS NULL THEN 0 ELSE 1 END, $8::text, now(), now()
           FROM o WHERE o.message IS NOT NULL AND o.old_status <> 'DELIVERED'
           RETURNING id, to_phone, message, sensitive, attempts
         ),
         c AS (
           UPDATE sms_outbox SET status = 'SENDING', attempts = attempts + 1, provider = $8::text, updated_at = now()
           WHERE $8::text IS NOT NULL AND id = ANY($7::int[]) AND status NOT IN ('SENDING', 'SENT', 'FAILED')
           RETURNING id, to_phone, message, sensitive, attempts
         )
         SELECT (SELECT array_agg(id) FROM o) AS orders, (SELECT array_agg(id) FROM s) AS sms,
           (SELECT json_agg(t) FROM (SELECT * FROM s WHERE $8::text IS NOT NULL UNION ALL SELECT * FROM c) t) AS claimed`,
        [
          lines.map((l) => l.id),
          lines.map((l) => l.reference),
          lines.map((l) => l.via),
          lines.map((l) => l.phone),
          lines.map((l) => l.message),
          from,
          texts?.ids ?? [],
          texts?.provider ?? null
        ]
      )
      return {
        orders: (row?.orders ?? []).map(Number),
        sms: (row?.sms ?? []).map(Number),
        claimed: (row?.claimed ?? []).map((r) => ({
          id: Number(r.id),
          toPhone: r.to_phone,
          message: r.message,
          sensitive: !!r.sensitive,
          attempts: Number(r.attempts)
        }))
      }
    },

    /** Waits, in `t`, for a CSV export in progress (it holds EXPORT_LOCK exclusively). */
    waitForExport: async (t: Transaction) => void (await run('SELECT pg_advisory_xact_lock_shared($1)', [EXPORT_LOCK], t)),

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
