import { QueryTypes, type Sequelize } from 'sequelize'

// The statements of daily reconciliation: its runs, the days done, and our payments of a day.

/** One of our payments as reconciliation compares it with the gateway's list. */
export interface ReconciledPayment {
  transactionId: string
  status: string
  amountPesewas: number
  /** What the payer actually paid, when the gateway said so. */
  paidPesewas: number | null
}

export interface ReconciliationRun {
  id: number
  day: string
  gateway: string
  status: string
  gatewayCount: number
  localCount: number
  mismatches: number
  message: string | null
  startedAt: string
}

type Raw = Record<string, any>
const numOrNull = (v: unknown) => (v == null ? null : Number(v))

export function createReconcileQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    /** A new run of one day; its id. */
    async startRun(day: string, gateway: string): Promise<number> {
      const [runRow] = await q<{ id: number }>(`INSERT INTO reconciliation_runs (day, gateway) VALUES (:day, :gateway) RETURNING id`, {
        day,
        gateway
      })
      return Number(runRow!.id)
    },

    /** Our payments of the gateway's day, and any other the gateway listed by reference. */
    async paymentsOf(gateway: string, from: Date, to: Date, refs: string[]): Promise<ReconciledPayment[]> {
      const rows = await q<Raw>(
        `SELECT transaction_id, status, amount_pesewas, CAST(details->'paid'->>'amountPesewas' AS int) AS paid FROM payments
          WHERE gateway = :gateway AND ((created_at >= :from AND created_at < :to) OR transaction_id IN (:refs))`,
        { gateway, from, to, refs: refs.length ? refs : [''] }
      )
      return rows.map((r) => ({
        transactionId: r.transaction_id,
        status: r.status,
        amountPesewas: Number(r.amount_pesewas),
        paidPesewas: numOrNull(r.paid)
      }))
    },

    async finishRun(id: number, gatewayCount: number, localCount: number, mismatches: number): Promise<void> {
      await q(
        `UPDATE reconciliation_runs SET status = 'DONE', gateway_count = :g, local_count = :l, mismatches = :m, finished_at = now() WHERE id = :id RETURNING id`,
        { id, g: gatewayCount, l: localCount, m: mismatches }
      )
    },

    async markDayReconciled(day: string, gateway: string, runId: number): Promise<void> {
      await q(
        `INSERT INTO reconciled_days (day, gateway, run_id) VALUES (:day, :gateway, :id)
           ON CONFLICT (day) DO UPDATE SET gateway = EXCLUDED.gateway, run_id = EXCLUDED.run_id, reconciled_at = now() RETURNING day`,
        { day, gateway, id: runId }
      )
    },

    async failRun(id: number, message: string): Promise<void> {
      await q(`UPDATE reconciliation_runs SET status = 'FAILED', message = :m, finished_at = now() WHERE id = :id RETURNING id`, {
        id,
        m: message
      })
    },

    async latestRuns(limit: number): Promise<ReconciliationRun[]> {
      const rows = await q<Raw>(`SELECT * FROM reconciliation_runs ORDER BY started_at DESC LIMIT :limit`, { limit })
      return rows.map((r) => ({
        id: Number(r.id),
        day: typeof r.day === 'string' ? r.day : new Date(r.day).toISOString().slice(0, 10),
        gateway: r.gateway,
        status: r.status,
        gatewayCount: Number(r.gateway_count),
        localCount: Number(r.local_count),
        mismatches: Number(r.mismatches),
        message: r.message,
        startedAt: new Date(r.started_at).toISOString()
      }))
    },

    /** The days without a record between the window's start (or the first day ever done) and the latest. */
    async daysWithoutRecord(windowStart: string, latest: string): Promise<string[]> {
      const rows = await q<{ day: string }>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS day
         FROM generate_series(GREATEST(CAST(:windowStart AS date), COALESCE((SELECT min(day) FROM reconciled_days), CAST(:latest AS date))), CAST(:latest AS date), interval '1 day') d
        WHERE NOT EXISTS (SELECT 1 FROM reconciled_days r WHERE r.day = CAST(d AS date)) ORDER BY d`,
        { windowStart, latest }
      )
      return rows.map((r) => r.day)
    }
  }
}
