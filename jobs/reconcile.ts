import { QueryTypes } from 'sequelize'
import type { JobDeps } from './types.ts'
import { LOCKS, withAdvisoryLock, type Locked } from './lock.ts'

export const RECONCILE_DEFAULTS = {
  /** A payment younger than this may still get its webhook: leave it alone. */
  olderThanSeconds: 60,
  /** Payments read per page. */
  batch: 200,
  /** Pages per run at most, so one run ends; the next run starts again with the least recently checked. */
  maxPages: 50,
  /** Expired this recently: asked again (once a minute at most), so a late approval without a webhook is still found. */
  lateWindowMinutes: 30,
  concurrency: 4
}

export interface ReconcileResult {
  checked: number
  failed: number
  expired: number
}

/**
 * One reconcile run: every payment PENDING or IN_PROGRESS for over a minute is asked at its gateway
 * and settled through the payments service (the same exactly-once path as webhooks; it keeps to the
 * gateway's pace across instances by claiming last_checked_at); those past the gateway's window for
 * the payer become EXPIRED. Fair: it pages through all of them, least recently
 * checked first, with a keyset cursor over (last_checked_at, id) as read, so 200 stuck payments
 * never starve the rest. Payments expired in the last 30 minutes are asked again (late approvals
 * without a webhook are settled or refunded). One instance at a time (advisory lock); a payment that fails to refresh
 * is logged and tried again next run.
 */
export async function reconcilePayments({ services, log }: JobDeps, opts: Partial<typeof RECONCILE_DEFAULTS> = {}): Promise<Locked<ReconcileResult>> {
  const o = { ...RECONCILE_DEFAULTS, ...opts }
  const { payments } = services
  const { sequelize } = services.deps
  return withAdvisoryLock(sequelize, LOCKS.reconcile, async () => {
    const result: ReconcileResult = { checked: 0, failed: 0, expired: 0 }
    let cursor: { at: string; id: number } = { at: '-infinity', id: 0 }
    // Asking a payment stamps last_checked_at, which moves it behind the cursor: without this bound a
    // run slower than the gateway's pace (or a card, which has none) would ask the same payments again
    // page after page instead of ending.
    const [clock] = await sequelize.query<{ started: string }>(`SELECT now()::text AS started`, { type: QueryTypes.SELECT })
    const started = clock!.started
    for (let page = 0; page < o.maxPages; page++) {
      const rows = await sequelize.query<{ transaction_id: string; id: number; at: string }>(
        `SELECT transaction_id, id, COALESCE(last_checked_at, '-infinity'::timestamptz)::text AS at FROM payments
          WHERE status IN ('PENDING','IN_PROGRESS')
            AND created_at < now() - make_interval(secs => :older)
            AND (COALESCE(last_checked_at, '-infinity'::timestamptz), id) > (CAST(:at AS timestamptz), :id)
            AND COALESCE(last_checked_at, '-infinity'::timestamptz) < CAST(:started AS timestamptz)
          ORDER BY COALESCE(last_checked_at, '-infinity'::timestamptz), id LIMIT :batch`,
        { replacements: { older: o.olderThanSeconds, batch: o.batch, at: cursor.at, id: cursor.id, started }, type: QueryTypes.SELECT }
      )
      if (!rows.length) break
      const last = rows[rows.length - 1]!
      cursor = { at: last.at, id: last.id }
      const queue = rows.map((r) => r.transaction_id)
      const worker = async () => {
        for (let tx = queue.shift(); tx !== undefined; tx = queue.shift()) {
          try {
            const r = await payments.reconcileOne(tx)
            if (r === 'settled') result.checked++
            if (r === 'expired') result.expired++
          } catch (err) {
            result.failed++
            log.warn({ transactionId: tx, err: (err as Error).message }, 'reconcile: payment check failed; retried next run')
          }
        }
      }
      await Promise.all(Array.from({ length: Math.min(o.concurrency, queue.length) }, worker))
      if (rows.length < o.batch) break
    }
    // Late money is never dropped: recently expired payments are asked again now and then.
    const late = await sequelize.query<{ transaction_id: string }>(
      `SELECT transaction_id FROM payments
        WHERE status = 'EXPIRED' AND settled_at > now() - make_interval(mins => :mins)
          AND (last_checked_at IS NULL OR last_checked_at < now() - interval '1 minute')
        ORDER BY last_checked_at NULLS FIRST, id LIMIT :batch`,
      { replacements: { mins: o.lateWindowMinutes, batch: o.batch }, type: QueryTypes.SELECT }
    )
    for (const { transaction_id: tx } of late) {
      try {
        const after = await payments.refresh(tx)
        if (after && after.paymentStatus !== 'EXPIRED') result.checked++
      } catch (err) {
        result.failed++
        log.warn({ transactionId: tx, err: (err as Error).message }, 'reconcile: late check failed; retried next run')
      }
    }
    if (result.checked || result.failed || result.expired) log.info(result, 'reconcile run')
    return result
  })
}
