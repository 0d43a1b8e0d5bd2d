import { QueryTypes, type Sequelize } from 'sequelize'

// The delivery simulator's one statement: the keys it has answered (table delivery_simulator_sends).

export interface SimulatorSend {
  reference: string
  confirmAt: Date | null
}

export function createSimulatorQueries(sequelize: Sequelize) {
  return {
    /** Records the key's reference; a repeat of a key returns the row the first call wrote. */
    async remember(key: string, reference: string, confirmAt: Date | null): Promise<SimulatorSend> {
      const [row] = await sequelize.query<{ reference: string; confirm_at: Date | null }>(
        `INSERT INTO delivery_simulator_sends AS s (key, reference, confirm_at) VALUES (:key, :reference, :confirmAt)
         ON CONFLICT (key) DO UPDATE SET key = s.key RETURNING reference, confirm_at`,
        { replacements: { key, reference, confirmAt }, type: QueryTypes.SELECT }
      )
      return { reference: row!.reference, confirmAt: row!.confirm_at }
    }
  }
}
