import type { MigrationFn } from '../migrate.ts'

// ADR 0023: the export-time index ascending. An export inserts its rows with one
// stamp, later than every other, in order id order. Descending, each new entry went to the very
// first position of the index: no fast path, a descent from the root per row, and 50/50 splits of
// the leftmost page (half-empty pages, about twice the size). Ascending, each one is the last entry:
// PostgreSQL's rightmost-leaf fast path, 90/10 splits. The history (newest export first, then
// order id descending) reads it backwards, as fast. Inserting 200,000 rows: 0.81 s of PostgreSQL
// CPU instead of 0.92-0.99 s; the index after 30 exports of 20,000: 18 MB instead of 32 MB
// (docs/benchmarks-backoffice.md).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX order_exports_at_idx;
CREATE INDEX order_exports_at_idx ON order_exports (exported_at, order_id);
`)
}
