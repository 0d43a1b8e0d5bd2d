import type { MigrationFn } from '../migrate.ts'

// Every insert of an order, and each of the three updates a fulfilled order gets (settlement, the pump's claim,
// DELIVERED; none HOT), writes an entry in every index of orders whose condition holds (ADR 0082):
// - the admins' search had a trigram index per column: with GIN's pending list each new row version cost one WAL
//   record per index, about 300 B each. One GIN index over both columns takes one record per row version, and a
//   multicolumn GIN index serves a condition on any of its columns (a larger index to read, ADR 0082): the search's
//   `recipient_number LIKE ANY(...)` and `payment_transaction_id ILIKE ...` arms each still read it;
// - orders_agent_idx held an entry for every visitor's order: its readers look up an agent (`agent_id = x`,
//   `agent_id IN (...)`, the agents' foreign key), strict comparisons that imply `agent_id IS NOT NULL`. The admins'
//   "direct orders" filter (`agent_id IS NULL`) matches most orders: it walks the list's own index newest first;
// - orders_payment_phone_idx is read only by the lookup by phone, whose arm is `agent_id IS NULL AND
//   payment_phone_number IN (...)`: an agent's order's paying phone is never looked up.
// Built inside the migrator's transaction (no CONCURRENTLY): each CREATE holds a lock on orders that blocks writes
// while it reads the table. The search index can be built beforehand with CREATE INDEX CONCURRENTLY under its name, which
// the migration then keeps.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS orders_recipient_trgm_idx;
DROP INDEX IF EXISTS orders_txid_trgm_idx;
CREATE INDEX IF NOT EXISTS orders_search_trgm_idx ON orders USING gin (recipient_number gin_trgm_ops, payment_transaction_id gin_trgm_ops);
DROP INDEX IF EXISTS orders_agent_idx;
CREATE INDEX orders_agent_idx ON orders (agent_id, created_at DESC) WHERE agent_id IS NOT NULL;
DROP INDEX IF EXISTS orders_payment_phone_idx;
CREATE INDEX orders_payment_phone_idx ON orders (payment_phone_number) WHERE agent_id IS NULL;
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS orders_search_trgm_idx;
CREATE INDEX IF NOT EXISTS orders_recipient_trgm_idx ON orders USING gin (recipient_number gin_trgm_ops);
CREATE INDEX IF NOT EXISTS orders_txid_trgm_idx ON orders USING gin (payment_transaction_id gin_trgm_ops);
DROP INDEX IF EXISTS orders_agent_idx;
CREATE INDEX orders_agent_idx ON orders (agent_id, created_at DESC);
DROP INDEX IF EXISTS orders_payment_phone_idx;
CREATE INDEX orders_payment_phone_idx ON orders (payment_phone_number);
`)
}
