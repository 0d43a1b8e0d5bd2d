import { QueryTypes } from 'sequelize'
import type { JobDeps } from './types.ts'
import { LOCKS, withAdvisoryLock, type Locked } from './lock.ts'

export const RECONCILE_DEFAULTS = {
  /** A payment younger than this may still get its webhook: leave it alone. */
  olderThanSeconds: 60,
  /** Still pending after this long: EXPIRED. */
  expireAfterMinutes: 30,
  batch: 200,
  concurrency: 4,
}

export interface ReconcileResult {
  checked: number
  failed: number
  expired: number
}

/**
 * One reconcile run: payments PENDING or IN_PROGRESS for over a minute are checked with their gateway
 * and settled through the payments service (the same exactly-once path as webhooks; it also keeps
 * to the gateway's pace across instances by claiming last_checked_at); those pending
 * past 30 minutes become EXPIRED. One instance at a time (advisory lock); a payment that fails to
 * refresh is logged and tried again next run.
 */
export async function reconcilePayments({ services, log }: JobDeps, opts: Partial<typeof RECONCILE_DEFAULTS> = {}): Promise<Locked<ReconcileResult>> {
  const o = { ...RECONCILE_DEFAULTS, ...opts }
  const { payments } = services
  const { sequelize } = services.deps
  return withAdvisoryLock(sequelize, LOCKS.reconcile, async () => {
    const result: ReconcileResult = { checked: 0, failed: 0, expired: 0 }
    const rows = await sequelize.query<{ transaction_id: string }>(
      `SELECT transaction_id FROM payments
        WHERE status IN ('PENDING','IN_PROGRESS')
          AND created_at < now() - make_interval(secs => :older)
          AND created_at >= now() - make_interval(mins => :expire)
        ORDER BY created_at LIMIT :batch`,
      { replacements: { older: o.olderThanSeconds, expire: o.expireAfterMinutes, batch: o.batch }, type: QueryTypes.SELECT },
    )
    const queue = rows.map((r) => r.transaction_id)
    const worker = async () => {
      for (let tx = queue.shift(); tx !== undefined; tx = queue.shift()) {
        try {
          await payments.refresh(tx)
          result.checked++
        } catch (err) {
          result.failed++
          log.warn({ transactionId: tx, err: (err as Error).message }, 'reconcile: payment check failed; retried next run')
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(o.concurrency, queue.length) }, worker))
    // Older ones are left to expireStale: it asks the gateway a last time (it may have been paid) and
    // expires what is still open. Asking here too would use up the gateway's pace and block that.
    const stale = await payments.expireStale(o.expireAfterMinutes)
    result.expired = stale.expired
    if (result.checked || result.failed || result.expired) log.info(result, 'reconcile run')
    return result
  })
}
