import type { Sequelize, Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'

// The settings row's statements: one row (id 1) of JSON data, versioned by its xmin.

/** A scalar subquery giving the settings row's version, for `freshAt` (ADR 0024). */
export const SETTINGS_VERSION_SQL = '(SELECT xmin::text FROM settings WHERE id = 1)'
/** Every instance LISTENs here; a save NOTIFYs at commit, and each instance drops its copy. */
export const SETTINGS_CHANNEL = 'datahub_settings'

export interface SettingsRecord {
  /** The row's xmin: any save writes a new one. */
  version: string
  data: Record<string, unknown> | null
}

export function createSettingsQueries(models: Models, sequelize?: Sequelize) {
  const run = preparedFor(models.Settings.sequelize!)
  return {
    read: async (transaction?: Transaction): Promise<SettingsRecord | null> =>
      (await run<SettingsRecord>('SELECT xmin::text AS version, data FROM settings WHERE id = 1', [], transaction))[0] ?? null,
    /** Writes the row and, when this transaction commits (at once without one), tells every listening instance. */
    save: async (data: Record<string, unknown>, transaction?: Transaction) => {
      await models.Settings.upsert({ id: 1, data }, { transaction })
      if (sequelize) await sequelize.query(`SELECT pg_notify('${SETTINGS_CHANNEL}', '1')`, { transaction })
    }
  }
}
