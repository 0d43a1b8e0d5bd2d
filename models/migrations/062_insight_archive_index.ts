import type { MigrationFn } from '../migrate.ts'

// The archived list (Commission Analytics, 20 a page, newest archive first) at ~500k archived rows.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`CREATE INDEX commissions_archived_at_idx ON commissions (archived_at DESC, id DESC) WHERE archived;`)
}
