import type { Sequelize } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'

// The delivery simulator's one statement: the keys it has answered (table delivery_simulator_sends).

export interface SimulatorSend {
  key: string
  reference: string
  confirmAt: Date | null
}

/**
 * Records each key's reference, many in one statement; a key already there keeps the row its first call
 * wrote (the answer carries that row). The keys must be distinct: one statement cannot write a row twice.
 */
const REMEMBER = `INSERT INTO delivery_simulator_sends AS s (key, reference, confirm_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])
  ON CONFLICT (key) DO UPDATE SET key = s.key RETURNING key, reference, confirm_at`

export function createSimulatorQueries(sequelize: Sequelize) {
  const run = preparedFor(sequelize)
  return {
    async remember(sends: SimulatorSend[]): Promise<SimulatorSend[]> {
      const rows = await run<{ key: string; reference: string; confirm_at: Date | null }>(REMEMBER, [
        sends.map((s) => s.key),
        sends.map((s) => s.reference),
        sends.map((s) => s.confirmAt)
      ])
      return rows.map((r) => ({ key: r.key, reference: r.reference, confirmAt: r.confirm_at }))
    }
  }
}
