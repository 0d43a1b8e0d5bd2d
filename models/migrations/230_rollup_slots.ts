import type { MigrationFn } from '../migrate.ts'

// The running totals of migration 061 had one row per (day, network) and per (agent, network): every
// paid order of a network updated the same two rows (and every commission two more), and a row lock
// is held to COMMIT, so all settlements of a day queued behind one another (measured: 108 ms of the
// settlement's UPDATE orders was that wait at 16 settling at once; ADR 0024). Each total is
// now spread over 64 slots, chosen by the writing transaction's id (xid % 64: transactions running
// at the same time have nearby ids, so they mostly write different rows). Every reader already sums
// over the rows of a key: the slot is invisible to them. A transaction writes one slot only, in the
// same key order as before, so writers stay as deadlock-free as they were with one row per key.
const SLOT = '(pg_current_xact_id()::text::bigint % 64)::smallint'
const ROW = `(created_at AT TIME ZONE 'UTC')::date AS day, archived, network, COALESCE(agent_id, 0) AS agent_id`
const PLUS = `SELECT ${ROW}, commission_amount_pesewas AS c, original_amount_pesewas AS r, 1 AS n FROM new_rows`
const MINUS = `SELECT ${ROW}, -commission_amount_pesewas AS c, -original_amount_pesewas AS r, -1 AS n FROM old_rows`

const applyDeltas = (rows: string) => `
    INSERT INTO commission_daily AS t (day, archived, network, slot, commission, revenue, n)
    SELECT day, archived, network, ${SLOT}, sum(c), sum(r), sum(n) FROM (${rows}) d
    GROUP BY day, archived, network HAVING sum(n) <> 0 OR sum(c) <> 0 OR sum(r) <> 0 ORDER BY day, archived, network
    ON CONFLICT (day, archived, network, slot) DO UPDATE SET commission = t.commission + EXCLUDED.commission, revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
    INSERT INTO commission_by_agent AS t (agent_id, archived, network, slot, commission, revenue, n)
    SELECT agent_id, archived, network, ${SLOT}, sum(c), sum(r), sum(n) FROM (${rows}) d
    GROUP BY agent_id, archived, network HAVING sum(n) <> 0 OR sum(c) <> 0 OR sum(r) <> 0 ORDER BY agent_id, archived, network
    ON CONFLICT (agent_id, archived, network, slot) DO UPDATE SET commission = t.commission + EXCLUDED.commission, revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;`

const revenue = (rec: 'OLD' | 'NEW', sign: '' | '-') => `
    INSERT INTO order_revenue_daily AS t (day, network, slot, revenue, n) VALUES ((${rec}.created_at AT TIME ZONE 'UTC')::date, ${rec}.network, ${SLOT}, ${sign}${rec}.amount_pesewas, ${sign}1)
    ON CONFLICT (day, network, slot) DO UPDATE SET revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
    INSERT INTO order_revenue_by_agent AS t (agent_id, network, slot, revenue, n) VALUES (COALESCE(${rec}.agent_id, 0), ${rec}.network, ${SLOT}, ${sign}${rec}.amount_pesewas, ${sign}1)
    ON CONFLICT (agent_id, network, slot) DO UPDATE SET revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;`

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE commission_daily ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE commission_daily DROP CONSTRAINT commission_daily_pkey, ADD PRIMARY KEY (day, archived, network, slot);
ALTER TABLE commission_by_agent ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE commission_by_agent DROP CONSTRAINT commission_by_agent_pkey, ADD PRIMARY KEY (agent_id, archived, network, slot);
ALTER TABLE order_revenue_daily ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE order_revenue_daily DROP CONSTRAINT order_revenue_daily_pkey, ADD PRIMARY KEY (day, network, slot);
ALTER TABLE order_revenue_by_agent ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE order_revenue_by_agent DROP CONSTRAINT order_revenue_by_agent_pkey, ADD PRIMARY KEY (agent_id, network, slot);

CREATE OR REPLACE FUNCTION commission_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
${applyDeltas(PLUS)}
  ELSIF TG_OP = 'UPDATE' THEN
${applyDeltas(`${PLUS} UNION ALL ${MINUS}`)}
  ELSE
${applyDeltas(MINUS)}
  END IF;
  RETURN NULL;
END $fn$;

CREATE OR REPLACE FUNCTION order_revenue_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status = 'SUCCESS' THEN
${revenue('OLD', '-')}
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status = 'SUCCESS' THEN
${revenue('NEW', '')}
  END IF;
  RETURN NULL;
END $fn$;
`)
}
