import type { MigrationFn } from '../migrate.ts'

// The exported-orders history walks this (newest orders first) instead of stepping over the last
// day's still-active orders in orders_created_idx: page 1 went from ~60 ms to a few ms at a million
// orders. It costs each export one more index entry per row (docs/benchmarks-backoffice.md).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`CREATE INDEX IF NOT EXISTS orders_history_idx ON orders (created_at DESC, id DESC) WHERE exported;`)
}
