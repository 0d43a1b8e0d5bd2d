import { QueryTypes, type Sequelize } from 'sequelize'

// Fixed keys shared by every instance (the migration lock is 727001).
export const LOCKS = { reconcile: 727101, housekeeping: 727102, reconcileDaily: 727103 } as const

export type Locked<T> = { ran: true; result: T } | { ran: false }

/**
 * Runs fn only if this instance wins the PostgreSQL advisory lock `key`; another instance already
 * holding it means the run is skipped here. The lock belongs to a transaction, so it is released
 * when fn ends, however it ends, and never outlives a crashed connection.
 */
export async function withAdvisoryLock<T>(sequelize: Sequelize, key: number, fn: () => Promise<T>): Promise<Locked<T>> {
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(:key) AS ok', {
      replacements: { key },
      type: QueryTypes.SELECT,
      transaction
    })
    if (!row?.ok) return { ran: false } as const
    return { ran: true, result: await fn() } as const
  })
}
