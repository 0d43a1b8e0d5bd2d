import type { MigrationFn } from '../migrate.ts'

// Running totals for the commission and agent reports. Summing 800k commissions or 1M
// orders on every page view costs seconds on a busy 2-core host; these small tables hold the same
// sums per day / agent / network, kept exact by triggers in the same transaction as the change, so
// the reports read a few hundred rows and still equal the base tables (tests check both ways).
// Ghana keeps GMT, so a UTC date is the shop's day.
const ROW = `(created_at AT TIME ZONE 'UTC')::date AS day, archived, network, COALESCE(agent_id, 0) AS agent_id`
const PLUS = `SELECT ${ROW}, commission_amount_pesewas AS c, original_amount_pesewas AS r, 1 AS n FROM new_rows`
const MINUS = `SELECT ${ROW}, -commission_amount_pesewas AS c, -original_amount_pesewas AS r, -1 AS n FROM old_rows`

/** One grouped delta per key, applied in key order (daily rows first, then agent rows). */
const applyDeltas = (rows: string) => `
    INSERT INTO commission_daily AS t (day, archived, network, commission, revenue, n)
    SELECT day, archived, network, sum(c), sum(r), sum(n) FROM (${rows}) d
    GROUP BY day, archived, network HAVING sum(n) <> 0 OR sum(c) <> 0 OR sum(r) <> 0 ORDER BY day, archived, network
    ON CONFLICT (day, archived, network) DO UPDATE SET commission = t.commission + EXCLUDED.commission, revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
    INSERT INTO commission_by_agent AS t (agent_id, archived, network, commission, revenue, n)
    SELECT agent_id, archived, network, sum(c), sum(r), sum(n) FROM (${rows}) d
    GROUP BY agent_id, archived, network HAVING sum(n) <> 0 OR sum(c) <> 0 OR sum(r) <> 0 ORDER BY agent_id, archived, network
    ON CONFLICT (agent_id, archived, network) DO UPDATE SET commission = t.commission + EXCLUDED.commission, revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;`

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE commission_daily (
  day        DATE NOT NULL,
  archived   BOOLEAN NOT NULL,
  network    TEXT NOT NULL,
  commission BIGINT NOT NULL DEFAULT 0,
  revenue    BIGINT NOT NULL DEFAULT 0,
  n          BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (day, archived, network)
);
CREATE TABLE commission_by_agent (
  agent_id   INTEGER NOT NULL, -- 0: no agent (direct customer)
  archived   BOOLEAN NOT NULL,
  network    TEXT NOT NULL,
  commission BIGINT NOT NULL DEFAULT 0,
  revenue    BIGINT NOT NULL DEFAULT 0,
  n          BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, archived, network)
);
CREATE TABLE order_revenue_daily (
  day     DATE NOT NULL,
  network TEXT NOT NULL,
  revenue BIGINT NOT NULL DEFAULT 0,
  n       BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (day, network)
);
CREATE TABLE order_revenue_by_agent (
  agent_id INTEGER NOT NULL, -- 0: no agent
  network  TEXT NOT NULL,
  revenue  BIGINT NOT NULL DEFAULT 0,
  n        BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, network)
);

-- Commissions: statement-level, so archive-all applies one grouped delta per key, always in key
-- order (daily rows before agent rows, each sorted), which keeps concurrent writers free of deadlocks.
CREATE FUNCTION commission_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
CREATE TRIGGER commissions_rollup_ins AFTER INSERT ON commissions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_rollup_apply();
CREATE TRIGGER commissions_rollup_upd AFTER UPDATE ON commissions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_rollup_apply();
CREATE TRIGGER commissions_rollup_del AFTER DELETE ON commissions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION commission_rollup_apply();

CREATE FUNCTION commission_rollup_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM commission_daily;
  DELETE FROM commission_by_agent;
  RETURN NULL;
END $fn$;
CREATE TRIGGER commissions_rollup_trunc AFTER TRUNCATE ON commissions FOR EACH STATEMENT EXECUTE FUNCTION commission_rollup_truncate();

-- Orders: row-level and only when a SUCCESS order's counted fields change, so unrelated updates
-- (delivered, exported, payment progress) never touch the totals.
CREATE FUNCTION order_revenue_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status = 'SUCCESS' THEN
    INSERT INTO order_revenue_daily AS t (day, network, revenue, n) VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, OLD.network, -OLD.amount_pesewas, -1)
    ON CONFLICT (day, network) DO UPDATE SET revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
    INSERT INTO order_revenue_by_agent AS t (agent_id, network, revenue, n) VALUES (COALESCE(OLD.agent_id, 0), OLD.network, -OLD.amount_pesewas, -1)
    ON CONFLICT (agent_id, network) DO UPDATE SET revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status = 'SUCCESS' THEN
    INSERT INTO order_revenue_daily AS t (day, network, revenue, n) VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.network, NEW.amount_pesewas, 1)
    ON CONFLICT (day, network) DO UPDATE SET revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
    INSERT INTO order_revenue_by_agent AS t (agent_id, network, revenue, n) VALUES (COALESCE(NEW.agent_id, 0), NEW.network, NEW.amount_pesewas, 1)
    ON CONFLICT (agent_id, network) DO UPDATE SET revenue = t.revenue + EXCLUDED.revenue, n = t.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $fn$;
CREATE TRIGGER orders_revenue_ins AFTER INSERT ON orders FOR EACH ROW WHEN (NEW.payment_status = 'SUCCESS') EXECUTE FUNCTION order_revenue_apply();
CREATE TRIGGER orders_revenue_upd AFTER UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.payment_status = 'SUCCESS' OR NEW.payment_status = 'SUCCESS')
    AND (OLD.payment_status, OLD.amount_pesewas, OLD.network, OLD.agent_id, OLD.created_at) IS DISTINCT FROM (NEW.payment_status, NEW.amount_pesewas, NEW.network, NEW.agent_id, NEW.created_at))
  EXECUTE FUNCTION order_revenue_apply();
CREATE TRIGGER orders_revenue_del AFTER DELETE ON orders FOR EACH ROW WHEN (OLD.payment_status = 'SUCCESS') EXECUTE FUNCTION order_revenue_apply();

CREATE FUNCTION order_revenue_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM order_revenue_daily;
  DELETE FROM order_revenue_by_agent;
  RETURN NULL;
END $fn$;
CREATE TRIGGER orders_revenue_trunc AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION order_revenue_truncate();

-- Audit export walks the log newest first in (timestamp, id) keyset batches.
CREATE INDEX audit_time_id_idx ON audit_logs (timestamp DESC, id DESC);

-- Whatever is already there.
INSERT INTO commission_daily (day, archived, network, commission, revenue, n)
SELECT (created_at AT TIME ZONE 'UTC')::date, archived, network, sum(commission_amount_pesewas), sum(original_amount_pesewas), count(*) FROM commissions GROUP BY 1, 2, 3;
INSERT INTO commission_by_agent (agent_id, archived, network, commission, revenue, n)
SELECT COALESCE(agent_id, 0), archived, network, sum(commission_amount_pesewas), sum(original_amount_pesewas), count(*) FROM commissions GROUP BY 1, 2, 3;
INSERT INTO order_revenue_daily (day, network, revenue, n)
SELECT (created_at AT TIME ZONE 'UTC')::date, network, sum(amount_pesewas), count(*) FROM orders WHERE payment_status = 'SUCCESS' GROUP BY 1, 2;
INSERT INTO order_revenue_by_agent (agent_id, network, revenue, n)
SELECT COALESCE(agent_id, 0), network, sum(amount_pesewas), count(*) FROM orders WHERE payment_status = 'SUCCESS' GROUP BY 1, 2;
`)
}
