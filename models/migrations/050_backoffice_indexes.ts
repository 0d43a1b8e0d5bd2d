import type { MigrationFn } from '../migrate.ts'

// Back-office lists, search, analytics and export at a million orders (figures in
// docs/benchmarks-backoffice.md). Each index names the query it serves.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
-- Substring search (ILIKE '%term%') over numbers, transaction ids and names, in SQL over the whole table.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Active orders page: WHERE NOT exported ORDER BY created_at DESC, id DESC LIMIT n; also the export's candidates.
CREATE INDEX orders_active_created_idx ON orders (created_at DESC, id DESC) WHERE NOT exported;
-- Exported history page (ORDER BY exported_at DESC, id DESC) and the export's own batch (exported_at = its stamp).
CREATE INDEX orders_exported_at_idx ON orders (exported_at DESC, id DESC) WHERE exported;
CREATE INDEX orders_recipient_trgm_idx ON orders USING gin (recipient_number gin_trgm_ops);
CREATE INDEX orders_txid_trgm_idx ON orders USING gin (payment_transaction_id gin_trgm_ops);
-- No more: every index on orders is paid again by each export (an UPDATE that moves rows out of
-- the active list is never HOT), so network filters and analytics use the indexes above and 001's.

CREATE INDEX afa_name_trgm_idx ON afa_registrations USING gin (full_name gin_trgm_ops);
CREATE INDEX afa_card_trgm_idx ON afa_registrations USING gin (gh_card gin_trgm_ops);
CREATE INDEX afa_phone_trgm_idx ON afa_registrations USING gin (phone gin_trgm_ops);
CREATE INDEX afa_created_id_idx ON afa_registrations (created_at DESC, id DESC);
`)
}
