import type { MigrationFn } from '../migrate.ts'

// ADR 0050: the orders the CSV export may take, kept as they become exportable. The export used to
// find them by walking every paid, undelivered NOT_STARTED/FAILED order in id order and dropping
// those with an order_exports row; exported orders keep their orders row as it was (ADR 0021), so
// that walk covered every order ever exported, before the first row could go out (0.5-5 s at a
// million orders). Now a row here names each order whose orders row is exportable; the export
// walks these alone and deletes the ones it takes, in its one statement.
//
// Kept by triggers on orders, so every writer (settlement, delivery, refunds, imports) keeps it
// true without knowing of it. Their WHEN clauses are evaluated in C for each written row and call
// nothing unless the row enters or leaves the exportable state: the settlement's UPDATE, which
// queues the order, pays no function call. A row here does not by itself make an order
// exportable: the export still applies the whole rule (order_exports included) to the orders row.
const EXPORTABLE = (r: 'NEW' | 'OLD') =>
  `((${r}.payment_status = 'SUCCESS' AND NOT ${r}.delivered AND ${r}.delivery_status IN ('NOT_STARTED','FAILED')) IS TRUE)`

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE order_export_candidates (
  order_id INTEGER PRIMARY KEY
);
INSERT INTO order_export_candidates (order_id)
  SELECT o.id FROM orders o
   WHERE o.payment_status = 'SUCCESS' AND NOT o.delivered AND o.delivery_status IN ('NOT_STARTED','FAILED')
     AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id);
ANALYZE order_export_candidates;

CREATE FUNCTION order_export_candidate_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_export_candidates (order_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE FUNCTION order_export_candidate_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_export_candidates WHERE order_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_export_candidate_new AFTER INSERT ON orders
  FOR EACH ROW WHEN (${EXPORTABLE('NEW')}) EXECUTE FUNCTION order_export_candidate_in();
CREATE TRIGGER orders_export_candidate_enter AFTER UPDATE ON orders
  FOR EACH ROW WHEN (${EXPORTABLE('NEW')} AND NOT ${EXPORTABLE('OLD')}) EXECUTE FUNCTION order_export_candidate_in();
CREATE TRIGGER orders_export_candidate_leave AFTER UPDATE ON orders
  FOR EACH ROW WHEN (${EXPORTABLE('OLD')} AND NOT ${EXPORTABLE('NEW')}) EXECUTE FUNCTION order_export_candidate_out();
CREATE TRIGGER orders_export_candidate_gone AFTER DELETE ON orders
  FOR EACH ROW WHEN (${EXPORTABLE('OLD')}) EXECUTE FUNCTION order_export_candidate_out();
`)
}
