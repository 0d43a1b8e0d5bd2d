import type { MigrationFn } from '../migrate.ts'

// No statement looks a payment up by the gateway's own transaction id: callbacks, reconciliation and refunds
// all find it by our reference (transaction_id) or by its id. The index was still written on every payment's
// insert and on each of its non-HOT updates (the start's answer and the settlement), for no reader.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql('DROP INDEX IF EXISTS payments_ext_idx')
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql('CREATE INDEX IF NOT EXISTS payments_ext_idx ON payments (ext_transaction_id)')
}
