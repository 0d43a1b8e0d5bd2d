import type { MigrationFn } from '../migrate.ts'

// Measured at a million orders (docs/benchmarks-backoffice.md): the export's UPDATE was
// dominated by index maintenance. An UPDATE is "HOT" (new row version on the same page, no index
// entries at all) only when it changes no indexed column and the page has room. The export sets
// exported/exported_at/delivered/delivered_at/updated_at, and the payment settlement sets
// payment_status; these three indexes were the only ones on those columns, and they served the
// admin orders list alone, which now walks orders_created_idx (001) instead:
// - orders_status_exported_idx (001): (exported, payment_status, created_at DESC)
// - orders_active_created_idx, orders_exported_at_idx (050): partial indexes on exported.
// 052 then adds back one partial index for the history page, a measured trade. A fill factor of 85
// (room on each page for HOT updates) was measured too: 27k rows/s for one export of 75,000 but
// 2,400 rows/s for the following one of 200,000, so it is not set.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS orders_status_exported_idx;
DROP INDEX IF EXISTS orders_active_created_idx;
DROP INDEX IF EXISTS orders_exported_at_idx;
`)
}
